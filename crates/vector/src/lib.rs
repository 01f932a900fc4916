//! Many games of one kind stepped together by action ids, for learning programs.
//!
//! A [`VecEnv`] holds `num_envs` games of one [`GameKind`] with the same options and steps them
//! all in one call ([`VecEnv::step`]), on several threads when asked, writing batched arrays:
//! the planes of each game from the side to move (or from the agent's seat against a bot), the
//! legal-action masks, the seat to move, the rewards per seat, and whether each game ended by
//! its rules (`terminated`) or by the environment's move limit (`truncated`). A game that ends
//! is replaced in the same step by the next game of that env (same-step auto-reset): its
//! rewards and flags describe the game that ended, its planes and mask the new one.
//!
//! Everything is seeded: the set-up of game `e` of env `i` follows from the base seed, `i` and
//! `e` only, and so do the bot's moves and [`VecEnv::sample_actions`], whatever the number of
//! threads. [`VecEnv::search`] runs a batched PUCT tree search from every env's position,
//! asking one evaluator per round for the priors and values of a whole batch of leaves.
//!
//! Nothing here knows a game: ids, planes and rules come from each game's
//! [`Encoding`](boardlab_core::Encoding). The Python package (`boardlab.vector`) wraps this
//! crate; `docs/python.md` is the reference.

mod env;
mod search;
mod seeds;

pub use env::{AgentSeats, Config, Opponent, Outputs, VecEnv, VecError};
pub use search::{Leaves, SearchConfig, SearchOutput};
