//! Tutorials: a few short lessons per game, each on a real position, each checked by the rules.
//!
//! A game's crate writes its lessons as [`Step`]s (returned by [`Present::tutorial`]): what to
//! do in plain words, a position, the moves that succeed (listed, or found by a check the crate
//! computes on every legal move), a hint, the move "show me" plays, and what to say after a
//! success or a wrong move. [`lesson`] checks a step against the rules and turns it into a
//! [`Lesson`], the form interfaces use: every goal move in canonical notation, so a page only
//! compares the move a player made with a list, and holds no rules.
//!
//! [`lesson`] refuses a step that could mislead a learner: a position that does not parse or is
//! already over, a goal move that is not legal, a show-me move outside the goal, a step that no
//! attempt can fail, a wrong move without words, or words meant for engines ("seat", "ply").

pub(crate) mod step;

pub use step::{Goal, Mistake, Step};

use crate::present::Click;
use crate::{GameInfo, Present};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use thiserror::Error;

/// A step checked against the rules, ready for an interface (`GET /api/tutorials/{game}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lesson {
    pub title: &'static str,
    pub text: &'static str,
    /// The options that differ from the defaults.
    pub options: BTreeMap<String, String>,
    /// The starting position, canonically written.
    pub position: String,
    /// Every move that succeeds, in canonical notation, in the game's move order.
    pub goal: Vec<String>,
    pub hint: &'static str,
    /// The move "show me" plays, in canonical notation.
    pub show: String,
    pub done: &'static str,
    /// What to say after a legal move outside the goal that no mistake names.
    pub wrong: &'static str,
    pub mistakes: Vec<MistakeWords>,
}

/// Words for one wrong attempt: a move (canonical) or a clicked cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MistakeWords {
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell: Option<String>,
    pub text: &'static str,
}

impl Lesson {
    /// What to say after the legal move `mv` (canonical): `None` when it succeeds.
    #[must_use]
    pub fn refusal(&self, mv: &str) -> Option<&'static str> {
        if self.goal.iter().any(|g| g == mv) {
            return None;
        }
        Some(
            self.mistakes
                .iter()
                .find(|m| m.mv.as_deref() == Some(mv))
                .map_or(self.wrong, |m| m.text),
        )
    }
}

/// A step that does not hold up against the rules.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{game} tutorial, step {number} ('{title}'): {problem}")]
pub struct TutorialError {
    pub game: &'static str,
    /// 1-based.
    pub number: usize,
    pub title: &'static str,
    pub problem: String,
}

/// Words that belong to engines and records, not to a learner.
const ENGINE_WORDS: &[&str] = &["seat", "seats", "ply", "plies", "notation"];

fn engine_word(text: &str, option_keys: &[&'static str]) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    for word in lower.split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '=') {
        let bare = word.trim_matches('-');
        if ENGINE_WORDS.contains(&bare) {
            return Some(bare.to_string());
        }
        if let Some((key, _)) = bare.split_once('=') {
            if option_keys.contains(&key) {
                return Some(bare.to_string());
            }
        }
    }
    None
}

/// Checks step `number` (1-based) of `G`'s tutorial against the rules and makes it a
/// [`Lesson`].
///
/// # Errors
/// The first problem found, naming the step.
pub fn lesson<G: Present>(number: usize, step: &Step<G>) -> Result<Lesson, TutorialError> {
    let info = G::info();
    let fail = |problem: String| TutorialError {
        game: info.name,
        number,
        title: step.title,
        problem,
    };
    check_words(step, info).map_err(fail)?;
    let options = info
        .parse_options(step.options)
        .map_err(|e| fail(format!("options: {e}")))?;
    let game =
        G::from_position(&options, step.position).map_err(|e| fail(format!("position: {e}")))?;
    if game.outcome().is_some() {
        return Err(fail("the position is already over".into()));
    }
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    let goal = goal_moves(&game, &legal, &step.goal).map_err(fail)?;
    let show = game
        .parse_move(step.show)
        .map_err(|e| fail(format!("show-me move: {e}")))?;
    if !goal.contains(&show) {
        return Err(fail(format!(
            "the show-me move '{}' does not reach the goal",
            step.show
        )));
    }
    let mut after = game.clone();
    after
        .play(show)
        .map_err(|e| fail(format!("the show-me move cannot be played: {e}")))?;
    let (mistakes, clicks) = mistakes(&game, &legal, &goal, step.mistakes).map_err(fail)?;
    let outside = legal.iter().filter(|m| !goal.contains(m)).count();
    if outside > 0 && step.wrong.trim().is_empty() {
        return Err(fail(
            "legal moves miss the goal but no words say why (wrong)".into(),
        ));
    }
    if outside == 0 && clicks == 0 {
        return Err(fail(
            "every legal move succeeds and no refused click is named: nothing can go wrong".into(),
        ));
    }
    Ok(Lesson {
        title: step.title,
        text: step.text,
        options: options.to_map(),
        position: game.position_text(),
        goal: goal.iter().map(|&m| game.format_move(m)).collect(),
        hint: step.hint,
        show: game.format_move(show),
        done: step.done,
        wrong: step.wrong,
        mistakes,
    })
}

/// A step's words: none of the required ones empty, none using an engine's word.
fn check_words<G: Present>(step: &Step<G>, info: &GameInfo) -> Result<(), String> {
    let words = [
        ("title", step.title),
        ("text", step.text),
        ("hint", step.hint),
        ("done", step.done),
    ];
    for (what, text) in words {
        if text.trim().is_empty() {
            return Err(format!("the {what} is empty"));
        }
    }
    let keys: Vec<&'static str> = info.options.iter().map(|o| o.name).collect();
    let mut all_words: Vec<(&str, &str)> = words.to_vec();
    all_words.push(("wrong", step.wrong));
    for m in step.mistakes {
        all_words.push(("mistake", m.words()));
    }
    for (what, text) in all_words {
        if let Some(w) = engine_word(text, &keys) {
            return Err(format!("the {what} uses the engine's word '{w}'"));
        }
    }
    Ok(())
}

/// The legal moves that reach a step's goal, in the game's order; at least one.
fn goal_moves<G: Present>(
    game: &G,
    legal: &[G::Move],
    goal: &Goal<G>,
) -> Result<Vec<G::Move>, String> {
    let moves: Vec<G::Move> = match goal {
        Goal::Moves(list) => {
            let mut out = Vec::new();
            for text in *list {
                let mv = game
                    .parse_move(text)
                    .map_err(|e| format!("goal move: {e}"))?;
                if !legal.contains(&mv) {
                    return Err(format!(
                        "goal move '{text}' is not legal: {}",
                        game.why_illegal(mv)
                    ));
                }
                if !out.contains(&mv) {
                    out.push(mv);
                }
            }
            // In the game's order.
            legal.iter().copied().filter(|m| out.contains(m)).collect()
        }
        Goal::Check(check) => legal.iter().copied().filter(|&m| check(game, m)).collect(),
    };
    if moves.is_empty() {
        return Err("no legal move reaches the goal".into());
    }
    Ok(moves)
}

/// A step's named mistakes, checked (a mistaken move is legal and misses the goal; a refused
/// click is a cell no legal move starts on), and how many are clicks.
fn mistakes<G: Present>(
    game: &G,
    legal: &[G::Move],
    goal: &[G::Move],
    named: &[Mistake],
) -> Result<(Vec<MistakeWords>, usize), String> {
    let interaction = game.interaction();
    let starts: BTreeSet<&str> = interaction
        .moves
        .iter()
        .flat_map(|m| {
            m.paths
                .iter()
                .filter_map(|p| p.first().map(|c: &Click| c.cell.as_ref()))
                .chain(m.set.iter().flatten().map(AsRef::as_ref))
        })
        .collect();
    let board = game.board();
    let mut out = Vec::new();
    let mut clicks = 0;
    for m in named {
        match *m {
            Mistake::Move(text, words) => {
                let mv = game.parse_move(text).map_err(|e| format!("mistake: {e}"))?;
                if !legal.contains(&mv) {
                    return Err(format!(
                        "mistake '{text}' is not a legal move (clicks cannot make it)"
                    ));
                }
                if goal.contains(&mv) {
                    return Err(format!("mistake '{text}' reaches the goal"));
                }
                out.push(MistakeWords {
                    mv: Some(game.format_move(mv)),
                    cell: None,
                    text: words,
                });
            }
            Mistake::Click(cell, words) => {
                if board.cell(cell).is_none() {
                    return Err(format!("mistake click '{cell}' is not a cell"));
                }
                if starts.contains(cell) {
                    return Err(format!(
                        "mistake click '{cell}' starts a legal move, so it is not refused"
                    ));
                }
                clicks += 1;
                out.push(MistakeWords {
                    mv: None,
                    cell: Some(cell.to_string()),
                    text: words,
                });
            }
        }
    }
    Ok((out, clicks))
}

/// Every step of `G`'s tutorial as lessons.
///
/// # Errors
/// The first step that does not hold up (see [`lesson`]).
pub fn lessons<G: Present>() -> Result<Vec<Lesson>, TutorialError> {
    G::tutorial()
        .iter()
        .enumerate()
        .map(|(i, s)| lesson(i + 1, s))
        .collect()
}

/// The checks a game's tests run on its tutorial: 5 to 10 steps, each a sound [`Lesson`]; the
/// show-me move succeeds; every legal move outside the goal is refused with words; and each
/// named wrong click is one the game itself refuses.
///
/// # Panics
/// On the first problem, naming the step.
pub fn check<G: Present>() {
    let steps = G::tutorial();
    let name = G::info().name;
    assert!(
        (5..=10).contains(&steps.len()),
        "{name}: a tutorial has 5 to 10 steps, not {}",
        steps.len()
    );
    let lessons = lessons::<G>().unwrap_or_else(|e| panic!("{e}"));
    for (i, l) in lessons.iter().enumerate() {
        let ctx = format!("{name} step {} ('{}')", i + 1, l.title);
        let options = G::info()
            .options_from_pairs(&l.options)
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        // The lesson as served reads back: the position, and every move of its lists.
        let game = G::from_position(&options, &l.position).unwrap_or_else(|e| panic!("{ctx}: {e}"));
        assert_eq!(l.refusal(&l.show), None, "{ctx}: show-me is refused");
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        let mut refused = 0;
        for mv in legal {
            let text = game.format_move(mv);
            match l.refusal(&text) {
                None => assert!(l.goal.contains(&text), "{ctx}: {text}"),
                Some(words) => {
                    refused += 1;
                    assert!(
                        !words.trim().is_empty(),
                        "{ctx}: '{text}' is refused without words"
                    );
                }
            }
        }
        for g in &l.goal {
            let mut after = game.clone();
            after
                .play_text(g)
                .unwrap_or_else(|e| panic!("{ctx}: goal move {g}: {e}"));
        }
        let clicks = l.mistakes.iter().filter(|m| m.cell.is_some()).count();
        assert!(refused + clicks > 0, "{ctx}: no attempt can fail");
    }
}
