//! How much work a search may do: a deadline, a node limit and a stop flag. One type for
//! every search that can run out: the exact solvers and the bots' exact endgames.

use std::sync::atomic::AtomicBool;
use thiserror::Error;
use web_time::Instant;

/// How much a search may do before it gives up with [`OutOfBudget`]:
/// until a deadline, at most a number of positions, and until another thread sets a stop
/// flag. The default, [`Budget::UNLIMITED`], sets no limit; a search without one runs as fast
/// as it would with no budget at all. A budget given to a call that makes several searches
/// (such as the Sight Reduction solver's `move_values_within`) holds for the
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
    pub fn after(self, used: u64) -> Budget<'a> {
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
