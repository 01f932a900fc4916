//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), one per account and
//! game, computed by the `skillratings` crate. Each rated game is a rating period of its own
//! for both players, as on the online sites that rate games as they end. A rating is
//! provisional while its deviation is above [`PROVISIONAL_DEVIATION`]: it is shown with a `?`
//! and listed after settled ones on the leaderboard.

use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A rating, its deviation and volatility.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// Every account's rating before its first rated game: 1500, deviation 350, volatility 0.06.
pub const START: Rating = Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};

/// The system constant τ, which limits how fast volatility changes (Glickman suggests 0.3 to
/// 1.2; 0.5 is the common choice).
pub const TAU: f64 = 0.5;

/// A rating whose deviation is above this is provisional (about 8 games from the start).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

fn to_lib(r: Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

fn from_lib(r: Glicko2Rating) -> Rating {
    Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// Both players' ratings after one game in which the first scored `score_first` (1 a win,
/// 0.5 a draw, 0 a loss).
#[must_use]
pub fn after_game(first: Rating, second: Rating, score_first: f64) -> [Rating; 2] {
    let outcome = if score_first > 0.75 {
        Outcomes::WIN
    } else if score_first < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let (a, b) = glicko2(&to_lib(first), &to_lib(second), &outcome, &config);
    [from_lib(a), from_lib(b)]
}

/// Whether a rating is still provisional.
#[must_use]
pub fn provisional(deviation: f64) -> bool {
    deviation > PROVISIONAL_DEVIATION
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    #[test]
    fn glickmans_worked_example() {
        // The example of Glickman's paper: a 1500 (RD 200) player beats a 1400 (RD 30) and
        // loses to a 1550 (RD 100) and a 1700 (RD 300) in one period, τ = 0.5. The paper's
        // answer: 1464.06, RD 151.52, volatility 0.05999.
        let player = to_lib(Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        });
        let opp = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: TAU,
            ..Glicko2Config::new()
        };
        let new = glicko2_rating_period(&player, &results, &config);
        assert!((new.rating - 1464.06).abs() < 0.01, "{new:?}");
        assert!((new.deviation - 151.52).abs() < 0.01, "{new:?}");
        assert!((new.volatility - 0.05999).abs() < 0.00001, "{new:?}");
    }

    #[test]
    fn one_game_moves_both_players_symmetrically_from_the_start() {
        let [w, l] = after_game(START, START, 1.0);
        assert!((w.rating - 1662.3).abs() < 0.1, "{w:?}");
        assert!((l.rating - 1337.7).abs() < 0.1, "{l:?}");
        assert!((w.deviation - 290.3).abs() < 0.1, "{w:?}");
        assert!(provisional(w.deviation));
        let [d1, d2] = after_game(START, START, 0.5);
        assert!((d1.rating - 1500.0).abs() < 1e-9 && (d2.rating - 1500.0).abs() < 1e-9);
        let [l2, w2] = after_game(START, START, 0.0);
        assert!((w2.rating - w.rating).abs() < 1e-9 && (l2.rating - l.rating).abs() < 1e-9);
        assert!(!provisional(60.0));
    }
}
