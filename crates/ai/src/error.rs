//! Why an outside engine did not give a move: the one error a bot's search can end with.

use thiserror::Error;

/// Why an outside engine did not give a move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("cannot start the engine `{command}`: {reason}")]
    Start { command: String, reason: String },
    /// The program ended or closed its output.
    #[error("the engine `{command}` {what}{}", last_words(stderr))]
    Stopped {
        command: String,
        /// "exited with exit status: 1", "closed its output", …
        what: String,
        /// The last lines it wrote to its standard error.
        stderr: String,
    },
    /// No answer in time.
    #[error("the engine `{command}` did not answer `{asked}` within {waited}")]
    Timeout {
        command: String,
        asked: String,
        waited: String,
    },
    /// The engine does not offer the game or one of its options, or refused a setting.
    #[error("the engine `{command}` cannot play {game} as asked: {reason}")]
    Unsupported {
        command: String,
        game: &'static str,
        reason: String,
    },
    /// `bestmove` named no move, or one that is not legal here.
    #[error("the engine `{command}` answered `bestmove {answer}`: {reason}")]
    BadMove {
        command: String,
        answer: String,
        reason: String,
    },
}

fn last_words(stderr: &str) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!("; its last words on standard error: {stderr}")
    }
}
