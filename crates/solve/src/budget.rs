//! How much work a search may do: a deadline, a node limit and a stop flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use thiserror::Error;

/// How much a search of the match solver may do before it gives up with [`OutOfBudget`]:
/// until a deadline, at most a number of positions, and until another thread sets a stop
/// flag. The default, [`Budget::UNLIMITED`], sets no limit; a search without one runs as fast
/// as it would with no budget at all. A budget given to a call that makes several searches
/// (such as [`Solver::move_values_within`](crate::Solver::move_values_within)) holds for the
/// whole call.
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    /// Give up once this instant has passed (looked at every [`CHECK_EVERY`] positions).
    pub deadline: Option<Instant>,
    /// Give up rather than visit more than this many positions.
    pub nodes: u64,
    /// Give up once another thread sets this flag (looked at every [`CHECK_EVERY`]
    /// positions).
    pub stop: Option<&'a AtomicBool>,
}

/// How many positions a search visits between two looks at the clock and the stop flag.
pub const CHECK_EVERY: u64 = 1024;

impl Budget<'static> {
    /// No limit.
    pub const UNLIMITED: Budget<'static> = Budget {
        deadline: None,
        nodes: u64::MAX,
        stop: None,
    };

    /// Until `deadline`.
    #[must_use]
    pub fn until(deadline: Instant) -> Budget<'static> {
        Budget {
            deadline: Some(deadline),
            ..Budget::UNLIMITED
        }
    }

    /// At most `nodes` positions.
    #[must_use]
    pub fn nodes(nodes: u64) -> Budget<'static> {
        Budget {
            nodes,
            ..Budget::UNLIMITED
        }
    }
}

impl Default for Budget<'static> {
    fn default() -> Self {
        Budget::UNLIMITED
    }
}

impl<'a> Budget<'a> {
    /// The same budget, also ending when `stop` is set.
    #[must_use]
    pub fn stopped_by<'b>(self, stop: &'b AtomicBool) -> Budget<'b> {
        Budget {
            deadline: self.deadline,
            nodes: self.nodes,
            stop: Some(stop),
        }
    }

    /// The budget left after `used` positions.
    #[must_use]
    pub(crate) fn after(self, used: u64) -> Budget<'a> {
        Budget {
            nodes: self.nodes.saturating_sub(used),
            ..self
        }
    }
}

/// Why a search ended without a result: its budget ran out. The value is unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum OutOfBudget {
    /// The deadline passed.
    #[error("the search ran out of time")]
    Deadline,
    /// The node limit was reached.
    #[error("the search reached its node limit")]
    Nodes,
    /// The stop flag was set.
    #[error("the search was stopped")]
    Stopped,
}

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
