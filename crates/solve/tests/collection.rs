//! The puzzles made on request: names, the first puzzles of every kind and grade checked
//! against the solvers again, the judge of moves and the hints.

use boardlab_core::{Game, Outcome};
use boardlab_core::{Notation, Rules as _};
use boardlab_solve::collection::{
    self, hint, judge, make, JudgeError, MakeError, PuzzleEntry, PuzzleId, PuzzleKind,
    PuzzleVerdict, DIFFICULTIES,
};
use boardlab_solve::puzzle::{grade, grade_win, Difficulty, WIN_PIECES};
use boardlab_solve::{SightReduction, Solver, SolverConfig};
use std::collections::HashMap;

fn config() -> SolverConfig {
    SolverConfig {
        table_bytes: 16 << 20,
        node_limit: collection::MAKE_NODES,
    }
}

/// Whether the side to move wins, by a plain search over every position (no bounds, no
/// table of the solver's): the check of the solver's answers in "win from here" puzzles.
fn plain_wins(g: &SightReduction, memo: &mut HashMap<(u32, u32, bool), bool>) -> bool {
    use boardlab_sight_reduction::{BLACK, WHITE};
    let k = (g.pieces(WHITE), g.pieces(BLACK), g.side_to_move() == WHITE);
    if let Some(&v) = memo.get(&k) {
        return v;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let w = moves.into_iter().any(|m| {
        let mut next = g.clone();
        next.play_unchecked(m);
        !plain_wins(&next, memo)
    });
    memo.insert(k, w);
    w
}

/// The first moves that keep the win, by the plain search.
fn plain_winning(g: &SightReduction, memo: &mut HashMap<(u32, u32, bool), bool>) -> Vec<String> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&m| {
            let mut next = g.clone();
            next.play_unchecked(m);
            !plain_wins(&next, memo)
        })
        .map(|m| g.format_move(m))
        .collect()
}

fn puzzle(name: &str) -> PuzzleEntry {
    make(name.parse().unwrap(), None).unwrap()
}

fn legal(game: &impl Game) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.iter().map(|&m| game.format_move(m)).collect()
}

#[test]
fn names_round_trip_and_bad_names_are_refused() {
    let id: PuzzleId = "win-medium-12".parse().unwrap();
    assert_eq!(
        (id.kind, id.difficulty, id.number),
        (PuzzleKind::Win, Difficulty::Medium, 12)
    );
    assert_eq!(id.to_string(), "win-medium-12");
    for bad in [
        "",
        "clear",
        "clear-easy",
        "clear-easy-0",
        "clear-easy-01",
        "clear-easy-1000001",
        "clear-easy-1-2",
        "clear-tricky-1",
        "solve-easy-1",
        "clear-easy-x",
        "clear-easy--1",
    ] {
        let e = bad.parse::<PuzzleId>().unwrap_err();
        assert!(e.to_string().contains("KIND-GRADE-NUMBER"), "{bad}: {e}");
    }
}

#[test]
fn the_first_puzzles_of_every_grade_are_made_and_hold_up() {
    let mut solver = Solver::new(config());
    let mut memo = HashMap::new();
    for kind in PuzzleKind::ALL {
        for d in DIFFICULTIES {
            for number in 1..=2 {
                let id = PuzzleId {
                    kind,
                    difficulty: d,
                    number,
                };
                let e = make(id, None).unwrap_or_else(|err| panic!("{id}: {err}"));
                assert_eq!(e.id, id.to_string());
                assert_eq!(e.difficulty, d);
                // The same name gives the same puzzle.
                assert_eq!(make(id, None).unwrap(), e, "{id}");
                let game = e.game();
                match kind {
                    PuzzleKind::Solitaire => {
                        assert!(game.is_solitaire(), "{id}");
                        let p = grade(&game, config()).unwrap_or_else(|| panic!("{id}"));
                        assert_eq!(
                            (p.first_moves, p.dead_ends, p.difficulty),
                            (e.first_moves, e.dead_ends, d),
                            "{id}"
                        );
                        let mut g = game.clone();
                        for m in &e.solution {
                            g.play_text(m).unwrap_or_else(|err| panic!("{id}: {err}"));
                        }
                        assert!(
                            matches!(g.outcome(), Some(Outcome::Puzzle { solved: true, .. })),
                            "{id}"
                        );
                    }
                    PuzzleKind::Win => {
                        assert!(!game.is_solitaire(), "{id}");
                        assert!(WIN_PIECES.contains(&game.occupied().count_ones()), "{id}");
                        let p = grade_win(&game, &mut solver).unwrap_or_else(|| panic!("{id}"));
                        assert_eq!(plain_winning(&game, &mut memo), e.solution, "{id}");
                        assert_eq!(
                            (&p.winning, p.first_moves, p.dead_ends, p.difficulty),
                            (&e.solution, e.first_moves, e.dead_ends, d),
                            "{id}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_deadline_in_the_past_stops_the_generator() {
    let id = "clear-hard-3".parse().unwrap();
    let past = std::time::Instant::now() - std::time::Duration::from_secs(1);
    assert_eq!(
        make(id, Some(past)),
        Err(MakeError::OutOfTime("clear-hard-3".into()))
    );
}

#[test]
fn a_win_puzzle_is_played_to_the_end_with_hints_against_the_best_defence() {
    let e = puzzle("win-hard-1");
    let game = e.game();
    // A move that throws the win away is refused.
    let losing = legal(&game)
        .into_iter()
        .find(|m| !e.solution.contains(m))
        .unwrap();
    let j = judge(&e, &[losing]).unwrap();
    assert_eq!(j.verdict, PuzzleVerdict::Mistake);
    assert!(!j.solved && j.reply.is_none());
    assert!(j.text.starts_with("That lets "), "{}", j.text);
    let mut line: Vec<String> = Vec::new();
    for _ in 0..20 {
        let h = hint(&e, &line).unwrap().mv.expect("a winning move");
        if line.is_empty() {
            assert!(e.solution.contains(&h), "{h}");
        }
        line.push(h);
        let j = judge(&e, &line).unwrap();
        assert_eq!(j.verdict, PuzzleVerdict::Good, "{line:?}");
        if j.solved {
            assert!(j.reply.is_none());
            assert!(j.text.contains("wins"), "{}", j.text);
            assert!(matches!(hint(&e, &line), Err(JudgeError::NotPlayersTurn)));
            return;
        }
        assert!(matches!(hint(&e, &line), Err(JudgeError::NotPlayersTurn)));
        line.push(j.reply.expect("a reply while the game goes on"));
    }
    panic!("the puzzle did not end: {line:?}");
}

#[test]
fn a_solitaire_puzzle_is_judged_move_by_move() {
    let e = puzzle("clear-hard-1");
    let dead = legal(&e.game())
        .into_iter()
        .find(|m| judge(&e, std::slice::from_ref(m)).unwrap().verdict == PuzzleVerdict::Mistake)
        .expect("a hard puzzle has dead ends");
    assert_ne!(dead, e.solution[0]);
    let h = hint(&e, &[dead]).unwrap();
    assert_eq!(h.mv, None);
    assert!(h.text.contains("can no longer be solved"), "{}", h.text);
    for n in 1..=e.solution.len() {
        let j = judge(&e, &e.solution[..n]).unwrap();
        assert_eq!(j.verdict, PuzzleVerdict::Good, "move {n}");
        assert_eq!(j.solved, n == e.solution.len(), "move {n}");
        if n < e.solution.len() {
            let h = hint(&e, &e.solution[..n]).unwrap();
            assert_eq!(h.text, format!("Try {}.", h.mv.as_deref().unwrap()));
            let h = h.mv.unwrap();
            let mut line = e.solution[..n].to_vec();
            line.push(h);
            assert_eq!(judge(&e, &line).unwrap().verdict, PuzzleVerdict::Good);
        }
    }
}

#[test]
fn bad_lines_are_refused_with_reasons() {
    let w = puzzle("win-easy-1");
    let s = puzzle("clear-easy-1");
    assert_eq!(judge(&w, &[]), Err(JudgeError::Empty));
    assert!(matches!(
        judge(&w, &["z9".to_string()]),
        Err(JudgeError::Move { number: 1, .. })
    ));
    assert_eq!(
        judge(&w, &[w.solution[0].clone(), "a1".into()]),
        Err(JudgeError::NotPlayersMove { number: 2 })
    );
    let legal = legal(&w.game());
    let illegal = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3"]
        .into_iter()
        .find(|m| !legal.iter().any(|l| l == m))
        .unwrap();
    let e = judge(&w, &[illegal.to_string()]).unwrap_err();
    assert!(e.to_string().starts_with("move 1: illegal move"), "{e}");
    let mut line = s.solution.clone();
    line.push("a1".into());
    assert!(matches!(judge(&s, &line), Err(JudgeError::Over { .. })));
    assert!(matches!(
        hint(&s, &s.solution),
        Err(JudgeError::Over { .. })
    ));
}

/// Once the solver's count bounds claimed a win here that a full search refutes, so this
/// "win from here" puzzle had no winning move at all.
#[test]
fn bug_win_hard_19_has_winning_moves_that_a_plain_search_confirms() {
    let e = puzzle("win-hard-19");
    let mut memo = HashMap::new();
    let game = e.game();
    assert!(plain_wins(&game, &mut memo), "{}", e.position);
    assert!(!e.solution.is_empty());
    assert_eq!(plain_winning(&game, &mut memo), e.solution);
}
