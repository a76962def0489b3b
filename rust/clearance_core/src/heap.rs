//! A 4-ary min-heap: shallower than a binary heap, so fewer cache lines per operation.

/// A min-heap of `Copy` items; the smallest item (by `Ord`) comes out first.
#[derive(Debug, Clone)]
pub(crate) struct MinHeap<T> {
    items: Vec<T>,
}

impl<T> Default for MinHeap<T> {
    fn default() -> Self {
        MinHeap { items: Vec::new() }
    }
}

const ARITY: usize = 4;

impl<T: Ord + Copy> MinHeap<T> {
    pub fn clear(&mut self) {
        self.items.clear();
    }

    pub fn push(&mut self, item: T) {
        let mut hole = self.items.len();
        self.items.push(item);
        while hole > 0 {
            let parent = (hole - 1) / ARITY;
            if self.items[parent] <= item {
                break;
            }
            self.items[hole] = self.items[parent];
            hole = parent;
        }
        self.items[hole] = item;
    }

    pub fn pop(&mut self) -> Option<T> {
        let last = self.items.pop()?;
        if self.items.is_empty() {
            return Some(last);
        }
        let top = self.items[0];
        let len = self.items.len();
        let mut hole = 0;
        loop {
            let first_child = hole * ARITY + 1;
            if first_child >= len {
                break;
            }
            let end = (first_child + ARITY).min(len);
            let mut smallest = first_child;
            for child in first_child + 1..end {
                if self.items[child] < self.items[smallest] {
                    smallest = child;
                }
            }
            if self.items[smallest] >= last {
                break;
            }
            self.items[hole] = self.items[smallest];
            hole = smallest;
        }
        self.items[hole] = last;
        Some(top)
    }

    pub fn memory_bytes(&self) -> usize {
        self.items.capacity() * std::mem::size_of::<T>()
    }
}
