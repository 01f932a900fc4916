//! Checks of a game's two reading steps, [`Notation::read_setup`] then
//! [`Notation::from_setup`], against [`Notation::from_position`] and against play.

#[cfg(doc)]
use crate::game::Notation;
use crate::game::{Game, NewGameError, PositionError, Rejection};
use crate::options::Options;
use rand::Rng;
use std::fmt::Debug;
use std::ops::Range;

/// Plays `seeds` random games under `options` (at most `max_plies` moves each) and checks,
/// in every position reached, that its position text reads into a set-up, that the set-up
/// checks into the game [`Notation::from_position`] gives, and that this game has the
/// position's text, side to move and legal moves. Returns the positions checked.
///
/// # Panics
/// On the first violation, with a message naming the options, seed and position.
pub fn check_setups<G: Game>(options: &Options, seeds: Range<u64>, max_plies: u32) -> usize {
    let mut checked = 0;
    let (mut moves, mut again) = (Vec::new(), Vec::new());
    for seed in seeds {
        let mut game = G::new(options, seed).expect("the options make a game");
        let mut rng = crate::rng(seed ^ 0x5E7);
        for _ in 0..=max_plies {
            let ctx = format!("{options:?} seed {seed} position {}", game.position_text());
            check_round_trip(&game, &game.options(), &ctx, (&mut moves, &mut again));
            checked += 1;
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
    }
    checked
}

/// Checks that `game`'s position text reads into a set-up that checks into the game
/// [`Notation::from_position`] gives, with the same text, side to move and legal moves
/// (`moves`, `again`: scratch space; `moves` holds `game`'s legal moves afterwards).
fn check_round_trip<G: Game>(
    game: &G,
    options: &crate::Options,
    ctx: &str,
    (moves, again): (&mut Vec<G::Move>, &mut Vec<G::Move>),
) {
    let text = game.position_text();
    let setup =
        G::read_setup(options, &text).unwrap_or_else(|e| panic!("{ctx}: read_setup failed: {e}"));
    let built = G::from_setup(options, setup)
        .unwrap_or_else(|e| panic!("{ctx}: from_setup refused it: {e}"));
    let direct = G::from_position(options, &text)
        .unwrap_or_else(|e| panic!("{ctx}: from_position failed: {e}"));
    assert_eq!(built, direct, "{ctx}: from_setup and from_position differ");
    assert_eq!(built.position_text(), text, "{ctx}: position text");
    assert_eq!(built.to_move(), game.to_move(), "{ctx}: side to move");
    built.legal_moves(again);
    game.legal_moves(moves);
    assert_eq!(again, moves, "{ctx}: legal moves");
}

/// Checks the position of every case of a perft reference file (see
/// [`crate::perft::read_cases`]: its position, or the start, after its moves) as
/// [`check_setups`] checks a played one: its position text reads into a set-up that checks
/// into the game [`Notation::from_position`] gives, with the same text, side to move and legal
/// moves. Returns the positions checked.
///
/// # Panics
/// On a malformed file or the first violation, naming the case.
pub fn check_case_setups<G: Game>(cases: &str) -> usize {
    let cases = crate::perft::read_cases(cases).expect("the perft file reads");
    let (mut moves, mut again) = (Vec::new(), Vec::new());
    for case in &cases {
        let ctx = format!("case {} ({})", case.name, case.options);
        let options = G::info()
            .parse_options(&case.options)
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        let game: G = crate::game::setup(&options, 0, case.position.as_deref(), &case.moves)
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        check_round_trip(&game, &options, &ctx, (&mut moves, &mut again));
    }
    cases.len()
}

/// Reads `text` under `options` into a set-up that [`Notation::from_setup`] must refuse for
/// problems. Checks that the refusal gives the set-up back unchanged and that
/// [`Notation::from_position`] reports the same problems on `text`; returns them.
///
/// # Panics
/// If the text does not read, or the set-up is accepted or refused for another reason.
pub fn rejected_problems<G: Game>(options: &Options, text: &str) -> Vec<String>
where
    G::Setup: PartialEq + Debug,
{
    let setup = G::read_setup(options, text)
        .unwrap_or_else(|e| panic!("'{text}' should read into a set-up: {e}"));
    let rejected = match G::from_setup(options, setup.clone()) {
        Ok(_) => panic!("the set-up of '{text}' should be refused"),
        Err(rejected) => rejected,
    };
    assert_eq!(rejected.setup, setup, "the refusal changed the set-up");
    let Rejection::Problems(problems) = rejected.reason else {
        panic!(
            "'{text}' should be refused for problems, not {}",
            rejected.reason
        );
    };
    assert!(!problems.is_empty(), "a refusal for problems lists none");
    assert_eq!(
        G::from_position(options, text).err(),
        Some(NewGameError::Position(PositionError {
            text: text.to_string(),
            problems: problems.clone(),
        })),
        "from_position should report the problems of the refusal"
    );
    problems
}
