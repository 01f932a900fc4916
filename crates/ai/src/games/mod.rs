//! Game knowledge for the bots: one module per game, each implementing
//! [`GameAi`](crate::knowledge::GameAi) over the game's public API.

pub mod assideum;
pub mod obsidio;
pub mod opprimo;
pub mod sight_reduction;
mod sight_reduction_judge;
