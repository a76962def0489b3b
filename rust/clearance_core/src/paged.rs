//! Paged arrays: one value per anchor, in fixed-size pages behind shared pointers.
//!
//! Everything a snapshot of a map shares with the map (terrain, clearance layers, move masks,
//! entry multipliers, region labels, stored rays, landmark tables) is a [`PagedVec`]: its
//! elements lie in pages of [`PAGE_LEN`] consecutive indices, each page behind its own [`Arc`]. Cloning the
//! array copies the page table and shares every page; writing an element copies the one page
//! it lies in if that page is still shared (copy on write, page by page). So a snapshot costs
//! a page table, and an edit after it copies only the pages it writes, not whole arrays.
//!
//! Index arithmetic stays as it is: element `i` lies in page `i >> PAGE_BITS` at offset
//! `i & (PAGE_LEN - 1)`, and a page is a run of consecutive indices. Every page holds exactly
//! `PAGE_LEN` elements (the last one is padded with `T::default()` past the length), so the
//! offset within a page needs no bounds check; the page table's own bounds check stands for
//! the array's, and reading a padding element is caught by a debug assertion.
//!
//! ```
//! use clearance_core::{PagedVec, PAGE_LEN};
//!
//! let mut masks = PagedVec::from(vec![0u8; 3 * PAGE_LEN]);
//! let snapshot = masks.clone();
//! masks[PAGE_LEN + 7] = 5;
//! assert_eq!((masks[PAGE_LEN + 7], snapshot[PAGE_LEN + 7]), (5, 0));
//! // Only the page written was copied.
//! assert_eq!(masks.pages_shared_with(&snapshot), 2);
//! ```

use std::fmt;
use std::ops::{Index, IndexMut, Range};
use std::sync::Arc;

/// Elements per page, as a power of two: `1 << PAGE_BITS`.
pub const PAGE_BITS: u32 = 12;

/// Elements per page of a [`PagedVec`].
pub const PAGE_LEN: usize = 1 << PAGE_BITS;

const OFFSET_MASK: usize = PAGE_LEN - 1;

type Page<T> = Arc<[T; PAGE_LEN]>;

/// An array of `T` stored in shared pages of [`PAGE_LEN`] consecutive elements: a clone shares
/// every page, and a write copies only the page it lies in (see the module docs).
///
/// # Bounds
///
/// Like a slice's, the methods that take a range or a page ([`slice`](Self::slice),
/// [`runs`](Self::runs), [`fill`](Self::fill), [`page`](Self::page), ...) panic when it lies
/// past the end, and [`assign`](Self::assign) when the lengths differ; [`slice`](Self::slice)
/// also when its range straddles two pages. Indexing (`array[i]`) is checked against the
/// length only in debug builds, because the searches index in their innermost loops: in a
/// release build an index past the end but inside the last page reads that page's unused
/// room (default values) instead of panicking. [`get`](Self::get) is always checked.
#[derive(Clone)]
pub struct PagedVec<T> {
    pages: Vec<Page<T>>,
    len: usize,
}

impl<T> PagedVec<T> {
    /// An empty array.
    pub const fn new() -> Self {
        PagedVec {
            pages: Vec::new(),
            len: 0,
        }
    }

    /// Number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of pages (the last one may be partly padding).
    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// The element at `index`, or `None` past the end.
    #[inline(always)]
    pub fn get(&self, index: usize) -> Option<&T> {
        (index < self.len).then(|| &self[index])
    }

    /// The elements of page `page`: indices `page * PAGE_LEN ..` up to the end of the page or
    /// of the array.
    pub fn page(&self, page: usize) -> &[T] {
        let start = page * PAGE_LEN;
        let end = self.len.min(start + PAGE_LEN).max(start);
        &self.pages[page][..end - start]
    }

    /// The pages in order, as slices of consecutive elements (without padding).
    pub fn pages(&self) -> impl Iterator<Item = &[T]> + '_ {
        (0..self.pages.len()).map(|page| self.page(page))
    }

    /// The elements in order.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.pages().flatten()
    }

    /// The elements of `range`, which must lie within one page (a row of a table whose rows
    /// are a power of two long, at most a page, never straddles two).
    #[inline]
    pub fn slice(&self, range: Range<usize>) -> &[T] {
        assert!(range.start <= range.end && range.end <= self.len);
        let page = range.start >> PAGE_BITS;
        let offset = range.start & OFFSET_MASK;
        &self.pages[page][offset..offset + (range.end - range.start)]
    }

    /// The elements of `range` as runs of consecutive elements, one per page they touch.
    pub fn runs(&self, range: Range<usize>) -> impl Iterator<Item = &[T]> + '_ {
        assert!(range.start <= range.end && range.end <= self.len);
        let mut at = range.start;
        std::iter::from_fn(move || {
            if at >= range.end {
                return None;
            }
            let (page, offset) = (at >> PAGE_BITS, at & OFFSET_MASK);
            let end = range.end.min((page + 1) << PAGE_BITS);
            let run = &self.pages[page][offset..offset + (end - at)];
            at = end;
            Some(run)
        })
    }

    /// How many pages this array shares (the same allocation, not just equal contents) with
    /// `other`, page for page.
    pub fn pages_shared_with(&self, other: &Self) -> usize {
        self.pages
            .iter()
            .zip(&other.pages)
            .filter(|(mine, theirs)| Arc::ptr_eq(mine, theirs))
            .count()
    }

    /// Whether page `page` of this array is the same allocation as that of `other`.
    pub fn shares_page(&self, other: &Self, page: usize) -> bool {
        match (self.pages.get(page), other.pages.get(page)) {
            (Some(mine), Some(theirs)) => Arc::ptr_eq(mine, theirs),
            _ => false,
        }
    }

    /// Bytes the elements take (shared pages count in full, as they would in a copy); the
    /// page table and the padding of the last page, under a page in all, are not counted.
    pub fn memory_bytes(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }
}

impl<T: Copy + Default> PagedVec<T> {
    /// `len` copies of `value`.
    pub fn filled(value: T, len: usize) -> Self {
        let page_count = len.div_ceil(PAGE_LEN);
        let full = Arc::new([value; PAGE_LEN]);
        let mut pages = vec![full; page_count];
        if let Some(last) = pages.last_mut() {
            if !len.is_multiple_of(PAGE_LEN) {
                let mut tail = [T::default(); PAGE_LEN];
                tail[..len % PAGE_LEN].fill(value);
                *last = Arc::new(tail);
            }
        }
        PagedVec { pages, len }
    }

    /// The elements copied into a `Vec`.
    pub fn to_vec(&self) -> Vec<T> {
        let mut values = Vec::with_capacity(self.len);
        for page in self.pages() {
            values.extend_from_slice(page);
        }
        values
    }

    /// The elements of page `page`, for writing: the page is copied first if it is shared.
    pub fn page_mut(&mut self, page: usize) -> &mut [T] {
        let start = page * PAGE_LEN;
        let end = self.len.min(start + PAGE_LEN).max(start);
        &mut Arc::make_mut(&mut self.pages[page])[..end - start]
    }

    /// Every page for writing, in order, each copied first if it is shared.
    pub fn pages_mut(&mut self) -> impl Iterator<Item = &mut [T]> + '_ {
        let len = self.len;
        (self.pages.iter_mut().enumerate()).map(move |(page, values)| {
            let start = page * PAGE_LEN;
            let end = len.min(start + PAGE_LEN).max(start);
            &mut Arc::make_mut(values)[..end - start]
        })
    }

    /// Sets the element at `index` to `value` if it differs, copying its page first if the
    /// page is shared; returns whether it differed. Writing an equal value copies nothing.
    #[inline]
    pub fn set(&mut self, index: usize, value: T) -> bool
    where
        T: PartialEq,
    {
        if self[index] == value {
            return false;
        }
        self[index] = value;
        true
    }

    /// Sets every element of `range` to `value`, page by page; pages that already hold it
    /// there are not copied.
    pub fn fill(&mut self, range: Range<usize>, value: T)
    where
        T: PartialEq,
    {
        assert!(range.start <= range.end && range.end <= self.len);
        let mut at = range.start;
        while at < range.end {
            let (page, offset) = (at >> PAGE_BITS, at & OFFSET_MASK);
            let end = range.end.min((page + 1) << PAGE_BITS);
            let span = offset..offset + (end - at);
            if self.pages[page][span.clone()]
                .iter()
                .any(|&old| old != value)
            {
                Arc::make_mut(&mut self.pages[page])[span].fill(value);
            }
            at = end;
        }
    }

    /// Replaces the elements by `values` (of the same length), keeping every page whose
    /// contents stay the same shared, and copying (or allocating) only the others.
    pub fn assign(&mut self, values: &[T])
    where
        T: PartialEq,
    {
        assert_eq!(values.len(), self.len, "assign keeps the length");
        for (page, fresh) in values.chunks(PAGE_LEN).enumerate() {
            if self.page(page) != fresh {
                Arc::make_mut(&mut self.pages[page])[..fresh.len()].copy_from_slice(fresh);
            }
        }
    }

    /// Appends `value`, copying the last page first if it is shared.
    pub fn push(&mut self, value: T) {
        if self.len == self.pages.len() * PAGE_LEN {
            self.pages.push(Arc::new([T::default(); PAGE_LEN]));
        }
        self.len += 1;
        let last = self.len - 1;
        self[last] = value;
    }
}

impl<T> Default for PagedVec<T> {
    fn default() -> Self {
        PagedVec::new()
    }
}

impl<T> Index<usize> for PagedVec<T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, index: usize) -> &T {
        debug_assert!(index < self.len, "index {index} past length {}", self.len);
        &self.pages[index >> PAGE_BITS][index & OFFSET_MASK]
    }
}

impl<T: Clone> IndexMut<usize> for PagedVec<T> {
    /// The element at `index`, for writing: its page is copied first if it is shared.
    #[inline]
    fn index_mut(&mut self, index: usize) -> &mut T {
        debug_assert!(index < self.len, "index {index} past length {}", self.len);
        &mut Arc::make_mut(&mut self.pages[index >> PAGE_BITS])[index & OFFSET_MASK]
    }
}

impl<T: Copy + Default> From<&[T]> for PagedVec<T> {
    fn from(values: &[T]) -> Self {
        let pages = values
            .chunks(PAGE_LEN)
            .map(|chunk| {
                let mut page = [T::default(); PAGE_LEN];
                page[..chunk.len()].copy_from_slice(chunk);
                Arc::new(page)
            })
            .collect();
        PagedVec {
            pages,
            len: values.len(),
        }
    }
}

impl<T: Copy + Default> From<Vec<T>> for PagedVec<T> {
    fn from(values: Vec<T>) -> Self {
        PagedVec::from(&values[..])
    }
}

impl<T: Copy + Default> FromIterator<T> for PagedVec<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        PagedVec::from(iter.into_iter().collect::<Vec<T>>())
    }
}

impl<T: PartialEq> PartialEq for PagedVec<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len
            && (0..self.pages.len())
                .all(|page| self.shares_page(other, page) || self.page(page) == other.page(page))
    }
}

impl<T: Eq> Eq for PagedVec<T> {}

impl<T: PartialEq> PartialEq<[T]> for PagedVec<T> {
    fn eq(&self, other: &[T]) -> bool {
        self.len == other.len()
            && self
                .pages()
                .zip(other.chunks(PAGE_LEN))
                .all(|(mine, theirs)| mine == theirs)
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T; N]> for PagedVec<T> {
    fn eq(&self, other: &[T; N]) -> bool {
        *self == other[..]
    }
}

impl<T: PartialEq> PartialEq<Vec<T>> for PagedVec<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        *self == other[..]
    }
}

impl<T: fmt::Debug> fmt::Debug for PagedVec<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// What a page-by-page comparison of an array with an earlier copy of it found (tests only).
#[cfg(test)]
#[derive(Debug, Default)]
pub(crate) struct PageAudit {
    /// Pages still shared with the copy.
    pub shared: usize,
    /// Pages no longer shared, whose contents differ: pages an edit wrote.
    pub written: usize,
    /// Pages no longer shared whose contents are the same: copied for nothing.
    pub needless: Vec<String>,
}

#[cfg(test)]
impl<T: PartialEq> PagedVec<T> {
    /// Compares this array with `before`, an earlier copy of it, page by page, into `audit`;
    /// `name` says which array a needless copy was found in.
    pub(crate) fn audit(&self, before: &Self, name: &str, audit: &mut PageAudit) {
        for page in 0..self.pages.len().max(before.pages.len()) {
            if self.shares_page(before, page) {
                audit.shared += 1;
            } else if page < self.pages.len()
                && page < before.pages.len()
                && self.page(page) == before.page(page)
            {
                audit.needless.push(format!("{name}, page {page}"));
            } else {
                audit.written += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_copies_only_its_page() {
        let mut values: PagedVec<u32> = (0..(5 * PAGE_LEN as u32 + 3)).collect();
        let snapshot = values.clone();
        assert_eq!(values.pages_shared_with(&snapshot), 6);
        values[2 * PAGE_LEN + 1] = 7;
        values.fill(4 * PAGE_LEN..5 * PAGE_LEN + 2, 9);
        for page in 0..6 {
            let written = matches!(page, 2 | 4 | 5);
            assert_eq!(!values.shares_page(&snapshot, page), written, "page {page}");
        }
        assert_eq!(snapshot[2 * PAGE_LEN + 1], 2 * PAGE_LEN as u32 + 1);
        assert_eq!(values[5 * PAGE_LEN + 2], 5 * PAGE_LEN as u32 + 2);
        assert_eq!(values[5 * PAGE_LEN + 1], 9);
    }

    #[test]
    fn writing_equal_values_copies_nothing() {
        let mut values = PagedVec::filled(3u8, 2 * PAGE_LEN + 10);
        let snapshot = values.clone();
        assert!(!values.set(PAGE_LEN, 3));
        values.fill(0..values.len(), 3);
        values.assign(&vec![3; 2 * PAGE_LEN + 10]);
        assert_eq!(values.pages_shared_with(&snapshot), 3);
        let mut changed = vec![3; 2 * PAGE_LEN + 10];
        changed[2 * PAGE_LEN + 9] = 4;
        values.assign(&changed);
        assert_eq!(values.pages_shared_with(&snapshot), 2);
        assert_eq!(values, changed);
    }

    #[test]
    fn runs_pages_and_iteration_follow_the_indices() {
        let values: PagedVec<u16> = (0..(2 * PAGE_LEN as u16 + 5)).collect();
        let runs: Vec<&[u16]> = values.runs(PAGE_LEN - 2..PAGE_LEN + 3).collect();
        assert_eq!(runs.len(), 2);
        assert_eq!(
            runs.concat(),
            (PAGE_LEN as u16 - 2..PAGE_LEN as u16 + 3).collect::<Vec<_>>()
        );
        assert_eq!(
            values.pages().map(<[u16]>::len).collect::<Vec<_>>(),
            [PAGE_LEN, PAGE_LEN, 5]
        );
        assert!(values.iter().copied().eq(0..2 * PAGE_LEN as u16 + 5));
        assert_eq!(values.get(2 * PAGE_LEN + 5), None);
        assert_eq!(values.to_vec().len(), values.len());
    }

    #[test]
    fn pushes_grow_the_last_page_and_leave_snapshots_alone() {
        let mut values = PagedVec::new();
        for value in 0..PAGE_LEN as u32 + 1 {
            values.push(value);
        }
        let snapshot = values.clone();
        values.push(99);
        assert_eq!((values.len(), snapshot.len()), (PAGE_LEN + 2, PAGE_LEN + 1));
        assert!(values.shares_page(&snapshot, 0));
        assert_eq!(snapshot.get(PAGE_LEN + 1), None);
        assert_eq!(values[PAGE_LEN + 1], 99);
    }
}
