//! A field's per-anchor answers: each reached anchor's cost and the direction of its next step,
//! over the whole map or only in the pages its search touched.

use super::page_table::{offset, PageTable, PAGE};

/// Per anchor: its cost to the nearest goal plus 1, in units of the graph's `cost_unit` (0 where
/// not reached), and the direction (index into `DIRECTIONS`) of its next step plus 1 (0 where
/// there is none).
#[derive(Debug, Clone)]
pub(super) enum FieldArrays {
    /// One entry per anchor of the map, from a search on flat labels.
    Flat { costs: Vec<u64>, next: Vec<u8> },
    /// The pages a search on pages touched, by their places in `table` (no page: nothing
    /// reached there).
    Paged {
        table: PageTable,
        costs: Vec<[u64; PAGE]>,
        next: Vec<[u8; PAGE]>,
    },
}

impl FieldArrays {
    /// The stored cost of `index` (inside the map): 0 if not reached.
    #[inline]
    pub fn cost(&self, index: usize) -> u64 {
        match self {
            FieldArrays::Flat { costs, .. } => costs[index],
            FieldArrays::Paged { table, costs, .. } => read(table, costs, index),
        }
    }

    /// The stored direction of the next step from `index` (inside the map): 0 if none.
    #[inline]
    pub fn next(&self, index: usize) -> u8 {
        match self {
            FieldArrays::Flat { next, .. } => next[index],
            FieldArrays::Paged { table, next, .. } => read(table, next, index),
        }
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        match self {
            FieldArrays::Flat { costs, next } => {
                costs.capacity() * std::mem::size_of::<u64>() + next.capacity()
            }
            FieldArrays::Paged { table, costs, next } => {
                table.memory_bytes()
                    + costs.capacity() * std::mem::size_of::<[u64; PAGE]>()
                    + next.capacity() * PAGE
            }
        }
    }
}

/// The entry of `index` among `pages` kept by `table`; 0 (nothing reached) where no page is.
#[inline]
fn read<T: Copy + Default>(table: &PageTable, pages: &[[T; PAGE]], index: usize) -> T {
    table
        .place(index)
        .map_or(T::default(), |place| pages[place][offset(index)])
}
