//! Who sits in a seat: a person (`human`) or the computer (`computer:SPEC`).

use crate::bot::ComputerPlayer;
use serde::Serialize;
use std::fmt;

/// A seat's player.
#[derive(Clone, Debug)]
pub enum Player {
    /// A person, who moves with the seat's token.
    Human,
    /// The computer, moving on its own with this bot.
    Computer(ComputerPlayer),
}

/// The accepted player forms, for error messages.
pub const ACCEPTED: &str = "human, computer (the default level), or computer:SPEC \
    (e.g. computer:random, computer:level:5)";

impl Player {
    /// Reads `human`, `computer` or `computer:SPEC`.
    ///
    /// # Errors
    /// Anything else, or a bot spec the computer players do not accept.
    pub fn parse(text: &str) -> Result<Player, String> {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        if lower == "human" {
            return Ok(Player::Human);
        }
        if lower == "computer" {
            return Ok(Player::Computer(ComputerPlayer::default_level()));
        }
        if lower.starts_with("computer:") {
            // The spec as written: an outside engine's command keeps its case.
            return ComputerPlayer::parse(&t["computer:".len()..])
                .map(Player::Computer)
                .map_err(|e| format!("bad computer player '{t}': {e}"));
        }
        Err(format!("unknown player '{t}'; accepted: {ACCEPTED}"))
    }

    /// Whether this seat is played by the computer.
    #[must_use]
    pub fn is_computer(&self) -> bool {
        matches!(self, Player::Computer(_))
    }
}

/// What the API says of a computer seat, so that clients need not read the spec text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ComputerView {
    /// The bot spec (`level:5`, `random`, `mcts:time=200ms`, …).
    pub bot: String,
    /// The strength level, for a `level:N` bot (`null` for the others).
    pub level: Option<u8>,
}

impl Player {
    /// The computer's view (`None` for a person).
    #[must_use]
    pub fn computer_view(&self) -> Option<ComputerView> {
        match self {
            Player::Human => None,
            Player::Computer(bot) => Some(ComputerView {
                bot: bot.to_string(),
                level: bot.level(),
            }),
        }
    }

    /// The computer's view of a stored player text (`None` for a person, or a text that is
    /// no longer a player).
    #[must_use]
    pub fn computer_view_of(text: &str) -> Option<ComputerView> {
        Player::parse(text).ok().and_then(|p| p.computer_view())
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Computer(bot) => write!(f, "computer:{bot}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_parse_and_print_canonically() {
        assert!(matches!(Player::parse(" Human "), Ok(Player::Human)));
        let p = Player::parse("COMPUTER:random").unwrap();
        assert_eq!(p.to_string(), "computer:random");
        assert_eq!(
            Player::parse(&p.to_string()).unwrap().to_string(),
            "computer:random"
        );
        let e = Player::parse("robot").unwrap_err();
        assert!(e.contains("accepted: human, computer"), "{e}");
        let e = Player::parse("computer:nonsense").unwrap_err();
        assert!(e.contains("bad computer player"), "{e}");
        let p = Player::parse("Computer:UGI:./My-Engine --Fast").unwrap();
        assert_eq!(p.to_string(), "computer:ugi:./My-Engine --Fast");
    }
}
