//! Sight Reduction's exact judgement for reviews and puzzle hints: in the removal phase, the
//! match solver's value of every move and the best line, or the solitaire solver's verdict.

use super::SolverEndgame;
use crate::kernel::{move_mask, RuleSet};
use crate::solver::{solitaire, Position, Solver, SolverConfig};
use crate::{Move, Phase, SightReduction};
use boardlab_ai::knowledge::ExactJudgement;
use boardlab_core::prelude::*;
use boardlab_core::{Budget, Proven};

/// Positions with at most this many pieces are solved with the distance to the end
/// (milliseconds); larger ones with who wins alone.
const DISTANCE_PIECES: u32 = 24;
/// The most positions one solitaire position's search may visit; past it the position is
/// undecided.
const SOLITAIRE_NODES: u64 = 20_000_000;
/// The match solver's table for judgements, kept between positions.
const TABLE_BYTES: usize = 32 << 20;
/// The solitaire search's table, per position.
const SOLITAIRE_TABLE_BYTES: usize = 8 << 20;

impl SolverEndgame {
    /// See [`boardlab_ai::knowledge::Endgame::judge`]: the removal phase only.
    pub(super) fn judge_position(
        &mut self,
        game: &SightReduction,
        budget: Budget<'_>,
        line: usize,
    ) -> Option<ExactJudgement<Move>> {
        if game.phase() != Phase::Remove {
            return None;
        }
        if game.is_solitaire() {
            return Some(solitaire_judgement(
                game,
                budget.nodes.min(SOLITAIRE_NODES),
                line,
            ));
        }
        let rules = RuleSet::of(game.config());
        let solver = self.judge_solver.get_or_insert_with(|| {
            Box::new(Solver::new(SolverConfig {
                table_bytes: TABLE_BYTES,
                ..SolverConfig::default()
            }))
        });
        let before = solver.stats().nodes;
        let values = move_values(solver, rules, game, budget)?;
        let best = exact_best(game, &values)?;
        let mut moves = vec![values[best].0];
        let mut g = game.clone();
        g.play_unchecked(values[best].0);
        while moves.len() < line && g.outcome().is_none() {
            let vs = move_values(solver, rules, &g, budget)?;
            let b = exact_best(&g, &vs)?;
            moves.push(vs[b].0);
            g.play_unchecked(vs[b].0);
        }
        let nodes = solver.stats().nodes - before;
        Some(ExactJudgement::Moves {
            values,
            best,
            line: moves,
            nodes,
        })
    }
}

/// Every move of `game` with its exact value, the distance too for small positions.
fn move_values(
    solver: &mut Solver,
    rules: RuleSet,
    game: &SightReduction,
    budget: Budget<'_>,
) -> Option<Vec<(Move, Proven)>> {
    let pos = Position::of(game).ok()?;
    let distance = game.occupied().count_ones() <= DISTANCE_PIECES;
    solver.move_values_within(rules, pos, distance, budget).ok()
}

/// The best of a removal-phase position's moves (an index into `values`): the fastest win or
/// the longest loss where distances are known; where they are not, the winning removal that
/// leaves the opponent the fewest removals (as the bots choose), else the first move.
fn exact_best(game: &SightReduction, values: &[(Move, Proven)]) -> Option<usize> {
    let seat = game.to_move();
    let rules = RuleSet::of(game.config());
    let side = game.side_to_move();
    let (me, opp) = (game.pieces(side), game.pieces(side.other()));
    let replies = |m| move_mask(m).map_or(0, |mask| rules.removable(opp, me & !mask).count_ones());
    (0..values.len()).min_by_key(|&i| {
        let (m, v) = values[i];
        (-v.rank_for(seat), replies(m), i)
    })
}

/// A solitaire position by the solitaire solver within `node_limit` positions: solvable (a
/// proven win for the one seat), unsolvable (a proven loss), or undecided.
fn solitaire_judgement(
    game: &SightReduction,
    node_limit: u64,
    line: usize,
) -> ExactJudgement<Move> {
    let seat = game.to_move();
    let config = SolverConfig {
        table_bytes: SOLITAIRE_TABLE_BYTES,
        node_limit,
    };
    let r = solitaire::solve(game, config).expect("a solitaire game in its removal phase");
    let value = if r.solved {
        Some(Proven::win(seat))
    } else if r.exhaustive {
        Some(Proven::loss(seat))
    } else {
        None
    };
    ExactJudgement::Solitaire {
        value,
        line: r.moves.into_iter().take(line).collect(),
        nodes: r.nodes,
    }
}
