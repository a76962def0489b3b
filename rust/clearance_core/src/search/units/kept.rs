//! The views a scratch keeps between queries: one per agent size, for the last few sizes.
//!
//! A view answers for one agent size (a unit's blocked rectangle grows with the size of the
//! agent that must not overlap it). A game re-plans units of several sizes in turn, so a
//! scratch that kept one view would build it again at every change of size; it keeps one per
//! size instead, up to [`KEPT_SIZES`] of them, and gives the memory of the one used longest
//! ago to a new size.

use super::UnitsView;

/// At most this many views, each for another agent size, are kept (each holds four sets of
/// bits as large as the map).
pub(crate) const KEPT_SIZES: usize = 4;

/// Views of the units kept by a scratch, the most recently used last.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeptViews {
    views: Vec<UnitsView>,
}

impl KeptViews {
    /// The view last used for agents of `agent_size`, taken out until it is
    /// [`put back`](Self::put_back); else the memory of the view used longest ago once
    /// [`KEPT_SIZES`] are kept, else an empty view.
    pub(crate) fn take(&mut self, agent_size: u8) -> UnitsView {
        let same_size = (self.views.iter()).position(|view| view.agent_size() == Some(agent_size));
        match same_size {
            Some(position) => self.views.remove(position),
            None if self.views.len() >= KEPT_SIZES => self.views.remove(0),
            None => UnitsView::default(),
        }
    }

    /// Keeps `view` as the most recently used, unless it was never built (a call that
    /// counted no unit): such a view holds nothing and would only take a place.
    pub(crate) fn put_back(&mut self, view: UnitsView) {
        if view.agent_size().is_none() {
            return;
        }
        if self.views.len() >= KEPT_SIZES {
            self.views.remove(0);
        }
        self.views.push(view);
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.views.iter().map(UnitsView::memory_bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;
    use crate::occupancy::{Occupancy, Unit};
    use crate::search::{Counted, ViewKey};

    /// A view built for agents of `size` over one unit on a 6 x 5 map.
    fn built(occupancy: &Occupancy, size: u8) -> UnitsView {
        let mut view = UnitsView::default();
        let key = ViewKey {
            units_version: occupancy.version(),
            agent_size: size,
            shape: (6, 5),
            origin: (0, 0),
        };
        view.update(key, occupancy, Counted::Accepted(&|_| true), usize::MAX);
        view
    }

    #[test]
    fn one_view_per_size_for_the_last_sizes_used() {
        let occupancy = Occupancy::holding(&[Unit {
            id: 7,
            anchor: Cell::new(2, 2),
            agent_size: 1,
        }]);
        let mut kept = KeptViews::default();
        for size in 1..=KEPT_SIZES as u8 {
            assert_eq!(kept.take(size).agent_size(), None);
            kept.put_back(built(&occupancy, size));
        }
        // Each size gets its own view back; a view never built takes no place.
        for size in 1..=KEPT_SIZES as u8 {
            let view = kept.take(size);
            assert_eq!(view.agent_size(), Some(size));
            kept.put_back(view);
            kept.put_back(UnitsView::default());
        }
        assert_eq!(kept.views.len(), KEPT_SIZES);
        // Size 1, used longest ago, gives its memory to a new size.
        let reused = kept.take(9);
        assert_eq!(reused.agent_size(), Some(1));
        kept.put_back(built(&occupancy, 9));
        for size in [2, 3, 4, 9] {
            assert_eq!(kept.take(size).agent_size(), Some(size));
        }
        assert_eq!(kept.take(1).agent_size(), None);
    }
}
