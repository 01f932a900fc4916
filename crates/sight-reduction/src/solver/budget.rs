//! A search's count of positions against its [`Budget`].

use boardlab_core::budget::{Budget, OutOfBudget, CHECK_EVERY};
use std::sync::atomic::Ordering;
use web_time::Instant;

/// A search's count of positions against its budget.
#[derive(Debug)]
pub(crate) struct Meter<'a> {
    budget: Budget<'a>,
    /// The count at which to look at the budget next.
    check_at: u64,
    /// Why the search ended early, once it has.
    pub out: Option<OutOfBudget>,
}

impl<'a> Meter<'a> {
    pub fn new(budget: Budget<'a>) -> Meter<'a> {
        // Without a clock or a flag to watch, only the node limit needs looking at.
        let watch = budget.deadline.is_some() || budget.stop.is_some();
        Meter {
            budget,
            check_at: if watch { 0 } else { budget.nodes },
            out: None,
        }
    }

    /// Whether the budget is spent once `nodes` positions have been visited (one compare
    /// unless it is time to look at the clock and the flag).
    #[inline(always)]
    pub fn spent(&mut self, nodes: u64) -> bool {
        nodes > self.check_at && self.look(nodes)
    }

    #[cold]
    #[inline(never)]
    fn look(&mut self, nodes: u64) -> bool {
        if self.out.is_some() {
            return true;
        }
        let b = self.budget;
        self.out = if nodes > b.nodes {
            Some(OutOfBudget::Nodes)
        } else if b.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            Some(OutOfBudget::Stopped)
        } else if b.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(OutOfBudget::Deadline)
        } else {
            None
        };
        if self.out.is_some() {
            // Stay spent: every later look answers at once.
            self.check_at = 0;
            return true;
        }
        self.check_at = if b.deadline.is_some() || b.stop.is_some() {
            nodes.saturating_add(CHECK_EVERY).min(b.nodes)
        } else {
            b.nodes
        };
        false
    }
}
