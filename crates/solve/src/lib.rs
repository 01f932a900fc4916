//! Solving Sight Reduction at scale: puzzles, the puzzles the web app offers, and the
//! first-player study. The exact solvers themselves live beside the rules, in
//! `boardlab_sight_reduction::solver`, and are re-exported here.
//!
//! - [`Solver`]: the value of a removal-phase position with perfect play, for every
//!   combination of the options `sight`, `enemy-sight` and `removal`: who wins, how fast, and
//!   the value of every legal move, each also within a [`Budget`].
//! - [`solitaire`]: the one-person puzzle (`mode=solitaire`): a solution that reaches the
//!   goal, or a proof that none exists and the lowest score reachable.
//! - [`puzzle`]: random solvable solitaire puzzles graded by how many first moves lead to
//!   dead ends, and "win from here" positions graded the same way.
//! - [`collection`]: the puzzles the web app offers, and the judge of each move in them.
//! - [`placement`]: the placement set-up (`setup=deterministic`) solved exactly, split into
//!   sharded jobs.
//! - [`study`]: many random set-ups solved exactly, in parallel and resumable, with
//!   first-player statistics, JSON, CSV and an SVG chart.

pub mod bench;
pub mod collection;
pub mod placement;
pub mod puzzle;
pub mod study;

pub use boardlab_sight_reduction::solver::*;
pub use boardlab_sight_reduction::solver::{groups, solitaire, tt};
pub use boardlab_sight_reduction::SightReduction;
