//! Which pages of a map a bounded field's search touched, and where each one is kept.
//!
//! An anchor's storage index splits into a page number (`index >> PAGE_SHIFT`) and an offset in
//! the page. Pages are numbered in the order taken (their *place*). The table has two levels,
//! so that its own size follows the search too: per group of [`GROUP`] consecutive pages, the
//! place of the group's entries plus 1 (0: no page of the group taken), and per taken group,
//! each page's place plus 1 (0: not taken). On a 4096 x 4096 map the first level takes 8 KiB,
//! where one entry per page would take 512 KiB, to be zeroed for every field.

/// log2 of the anchors per page.
pub(super) const PAGE_SHIFT: u32 = 7;
/// Anchors per page.
pub(super) const PAGE: usize = 1 << PAGE_SHIFT;
/// log2 of the pages per group.
const GROUP_SHIFT: u32 = 6;
/// Pages per group.
const GROUP: usize = 1 << GROUP_SHIFT;

/// The offset of `anchor` within its page.
#[inline(always)]
pub(super) fn offset(anchor: usize) -> usize {
    anchor & (PAGE - 1)
}

/// The places of the pages taken (see the module documentation).
#[derive(Debug, Clone)]
pub(super) struct PageTable {
    /// Per group of pages: the place of its entries in `groups` plus 1, or 0.
    first: Vec<u32>,
    /// Per group taken: each of its pages' place plus 1, or 0.
    groups: Vec<[u32; GROUP]>,
    /// Pages taken.
    taken: usize,
}

impl PageTable {
    /// No page taken, on a map of `anchors` anchors.
    pub fn new(anchors: usize) -> Self {
        PageTable {
            first: vec![0; anchors.div_ceil(PAGE << GROUP_SHIFT)],
            groups: Vec::new(),
            taken: 0,
        }
    }

    /// Pages of a map of `anchors` anchors.
    pub fn pages_for(anchors: usize) -> usize {
        anchors.div_ceil(PAGE)
    }

    /// The place of the page of `anchor` (inside the map), if taken.
    #[inline(always)]
    pub fn place(&self, anchor: usize) -> Option<usize> {
        match self.first[anchor >> (PAGE_SHIFT + GROUP_SHIFT)] {
            0 => None,
            group => match self.groups[group as usize - 1][page_in_group(anchor)] {
                0 => None,
                place => Some(place as usize - 1),
            },
        }
    }

    /// The place of the page of `anchor` (inside the map), taken as the next place if it was
    /// not: `(place, whether it was just taken)`.
    #[inline(always)]
    pub fn place_or_take(&mut self, anchor: usize) -> (usize, bool) {
        let mut group = self.first[anchor >> (PAGE_SHIFT + GROUP_SHIFT)];
        if group == 0 {
            group = self.take_group(anchor);
        }
        let entry = &mut self.groups[group as usize - 1][page_in_group(anchor)];
        if *entry == 0 {
            self.taken += 1;
            *entry = self.taken as u32;
            return (self.taken - 1, true);
        }
        (*entry as usize - 1, false)
    }

    /// Takes the group of `anchor`'s page: its place plus 1.
    #[cold]
    fn take_group(&mut self, anchor: usize) -> u32 {
        self.groups.push([0; GROUP]);
        let group = self.groups.len() as u32;
        self.first[anchor >> (PAGE_SHIFT + GROUP_SHIFT)] = group;
        group
    }

    /// Every taken page: its first anchor and its place.
    pub fn pages(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (self.first.iter().enumerate())
            .filter(|&(_, &group)| group != 0)
            .flat_map(move |(number, &group)| {
                (self.groups[group as usize - 1].iter().enumerate())
                    .filter(|&(_, &place)| place != 0)
                    .map(move |(page, &place)| {
                        let first = ((number << GROUP_SHIFT) + page) << PAGE_SHIFT;
                        (first, place as usize - 1)
                    })
            })
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.first.capacity() * std::mem::size_of::<u32>()
            + self.groups.capacity() * std::mem::size_of::<[u32; GROUP]>()
    }
}

/// The number of `anchor`'s page within its group.
#[inline(always)]
fn page_in_group(anchor: usize) -> usize {
    (anchor >> PAGE_SHIFT) & (GROUP - 1)
}
