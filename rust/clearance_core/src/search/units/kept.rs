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

    /// Keeps `view` as the most recently used.
    pub(crate) fn put_back(&mut self, view: UnitsView) {
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
