//! Time controls. A game may have a clock:
//!
//! - **real time**, `M+S`: each player has M minutes for the whole game and gains S seconds
//!   after each of their moves (`5+3`, `15+10`, `1+0`);
//! - **correspondence**, `Nd`: each move must be made within N days of the previous one
//!   (`1d`, `3d`, up to `14d`).
//!
//! The server keeps the clocks from the commit times of the game's events, which are stored
//! in its log, so a clock survives reloads and restarts and reads the same on every server.
//! The side to move's time runs from the last change of turn (the game's start for the first
//! move). A player whose time runs out loses, "on time"; none of the four games has a
//! position in which the opponent could not win, so there is no draw on time.

use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// A game's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `initial_ms` for the game, plus `increment_ms` after each move.
    RealTime { initial_ms: i64, increment_ms: i64 },
    /// `per_move_ms` for each move.
    Correspondence { per_move_ms: i64 },
}

/// A time control as the API gives it, in numbers (the control's text is given beside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TimeControlView {
    /// `realtime` or `correspondence`.
    pub kind: &'static str,
    /// Real time: each player's time for the game, and the time added after each move.
    pub initial_ms: Option<i64>,
    pub increment_ms: Option<i64>,
    /// Correspondence: the time for each move.
    pub per_move_ms: Option<i64>,
}

const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 24 * 60 * MINUTE_MS;

/// The accepted forms, for messages.
pub const ACCEPTED: &str =
    "M+S for real time (minutes for the game, seconds added per move, e.g. 5+3), or Nd for \
     correspondence (days per move, e.g. 3d)";

impl TimeControl {
    /// The time each player starts with.
    #[must_use]
    pub fn initial_ms(self) -> i64 {
        match self {
            TimeControl::RealTime { initial_ms, .. } => initial_ms,
            TimeControl::Correspondence { per_move_ms } => per_move_ms,
        }
    }

    /// The control in numbers, for the API.
    #[must_use]
    pub fn view(self) -> TimeControlView {
        let (initial_ms, increment_ms, per_move_ms) = match self {
            TimeControl::RealTime {
                initial_ms,
                increment_ms,
            } => (Some(initial_ms), Some(increment_ms), None),
            TimeControl::Correspondence { per_move_ms } => (None, None, Some(per_move_ms)),
        };
        TimeControlView {
            kind: self.kind(),
            initial_ms,
            increment_ms,
            per_move_ms,
        }
    }

    /// The mover's time after a move made with `left` still on the clock.
    #[must_use]
    pub fn after_move(self, left: i64) -> i64 {
        match self {
            TimeControl::RealTime { increment_ms, .. } => left + increment_ms,
            TimeControl::Correspondence { per_move_ms } => per_move_ms,
        }
    }

    /// `realtime` or `correspondence`.
    #[must_use]
    pub fn kind(self) -> &'static str {
        match self {
            TimeControl::RealTime { .. } => "realtime",
            TimeControl::Correspondence { .. } => "correspondence",
        }
    }

    /// The time a computer player may take for one move with `left` on its clock: a
    /// twentieth of what is left plus most of the increment (real time); no limit beyond its
    /// own in correspondence games, where a day is more than any computer move takes.
    #[must_use]
    pub fn computer_budget_ms(self, left: i64) -> Option<i64> {
        match self {
            TimeControl::RealTime { increment_ms, .. } => {
                Some((left / 20 + increment_ms * 4 / 5).clamp(50, left.max(50)))
            }
            TimeControl::Correspondence { .. } => None,
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::RealTime {
                initial_ms,
                increment_ms,
            } => {
                if initial_ms % MINUTE_MS == 0 {
                    write!(f, "{}+{}", initial_ms / MINUTE_MS, increment_ms / 1000)
                } else {
                    // Half a minute and the like.
                    write!(
                        f,
                        "{}+{}",
                        initial_ms as f64 / MINUTE_MS as f64,
                        increment_ms / 1000
                    )
                }
            }
            TimeControl::Correspondence { per_move_ms } => write!(f, "{}d", per_move_ms / DAY_MS),
        }
    }
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let t = text.trim().to_ascii_lowercase();
        let bad = || format!("bad clock '{}'; accepted: {ACCEPTED}", text.trim());
        if let Some(days) = t.strip_suffix('d') {
            let days: i64 = days.trim().parse().map_err(|_| bad())?;
            if !(1..=14).contains(&days) {
                return Err(format!(
                    "a correspondence clock has 1 to 14 days per move, not {days}"
                ));
            }
            return Ok(TimeControl::Correspondence {
                per_move_ms: days * DAY_MS,
            });
        }
        let (minutes, seconds) = t.split_once('+').ok_or_else(bad)?;
        let minutes: f64 = minutes.trim().parse().map_err(|_| bad())?;
        let seconds: i64 = seconds.trim().parse().map_err(|_| bad())?;
        if !(0.25..=180.0).contains(&minutes) || !minutes.is_finite() {
            return Err(format!(
                "a real-time clock has 0.25 to 180 minutes, not {minutes}"
            ));
        }
        if !(0..=180).contains(&seconds) {
            return Err(format!(
                "a real-time clock adds 0 to 180 seconds per move, not {seconds}"
            ));
        }
        Ok(TimeControl::RealTime {
            initial_ms: (minutes * MINUTE_MS as f64).round() as i64,
            increment_ms: seconds * 1000,
        })
    }
}

/// A game's clocks after its log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    pub control: TimeControl,
    /// Each seat's time left when its turn last began (or ended).
    pub left_ms: [i64; 2],
    /// When the side to move's turn began.
    pub turn_started_ms: i64,
}

impl Clocks {
    /// The clocks at a game's start, at `start_ms`.
    #[must_use]
    pub fn new(control: TimeControl, start_ms: i64) -> Clocks {
        Clocks {
            control,
            left_ms: [control.initial_ms(); 2],
            turn_started_ms: start_ms,
        }
    }

    /// The time `seat` has left at `now_ms` if it is to move (`running`), else its stored
    /// time.
    #[must_use]
    pub fn left_at(&self, seat: usize, running: bool, now_ms: i64) -> i64 {
        if running {
            self.left_ms[seat] - (now_ms - self.turn_started_ms).max(0)
        } else {
            self.left_ms[seat]
        }
    }

    /// When the side to move (`seat`) runs out of time.
    #[must_use]
    pub fn deadline(&self, seat: usize) -> i64 {
        self.turn_started_ms + self.left_ms[seat]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_print() {
        for (text, shown) in [
            ("5+3", "5+3"),
            (" 15 + 10 ", "15+10"),
            ("3D", "3d"),
            ("0.5+0", "0.5+0"),
        ] {
            let c: TimeControl = text.parse().unwrap();
            assert_eq!(c.to_string(), shown);
            assert_eq!(c.to_string().parse::<TimeControl>().unwrap(), c);
        }
        for bad in [
            "", "5", "5+", "+3", "0+0", "200+0", "5+-1", "0d", "15d", "xd", "nan+1",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        let rt: TimeControl = "5+3".parse().unwrap();
        assert_eq!(rt.initial_ms(), 300_000);
        assert_eq!(rt.after_move(1_000), 4_000);
        let cc: TimeControl = "2d".parse().unwrap();
        assert_eq!(cc.after_move(5), 2 * DAY_MS);
    }

    #[test]
    fn the_running_clock_counts_down_from_its_turn() {
        let c = Clocks::new("1+0".parse().unwrap(), 1_000);
        assert_eq!(c.left_at(0, true, 11_000), 50_000);
        assert_eq!(c.left_at(1, false, 11_000), 60_000);
        assert_eq!(c.deadline(0), 61_000);
        let budget = "1+2"
            .parse::<TimeControl>()
            .unwrap()
            .computer_budget_ms(60_000);
        assert_eq!(budget, Some(3_000 + 1_600));
    }
}
