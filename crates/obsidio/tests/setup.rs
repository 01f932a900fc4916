//! Position texts read in two steps: the set-up as written, then the rules' checks.

use boardlab_core::testkit::{check_case_setups, check_setups, rejected_problems};
use boardlab_core::{Game, Notation, Options, Rejection};
use boardlab_obsidio::{Move, Obsidio, Setup, Side, SwapState};

fn opts(text: &str) -> Options {
    Obsidio::info().parse_options(text).unwrap()
}

/// A `n`×`n` board with the given squares set, targets `+` and other squares `.` elsewhere.
fn board(n: u8, cells: &[(&str, char)]) -> String {
    let mut rows = Vec::new();
    for r in (0..n).rev() {
        let mut row = String::new();
        for f in 0..n {
            let name = format!("{}{}", (b'a' + f) as char, r + 1);
            row.push(match cells.iter().find(|(s, _)| *s == name) {
                Some(&(_, c)) => c,
                None if f % 2 == 1 && r % 2 == 1 => '+',
                None => '.',
            });
        }
        rows.push(row);
    }
    rows.join("/")
}

#[test]
fn set_ups_of_played_and_reference_positions_check_into_the_same_game() {
    for o in [
        "size=7",
        "size=7,tokens=5,pie=false",
        "size=9",
        "size=11,tokens=7",
    ] {
        assert!(check_setups::<Obsidio>(&opts(o), 0..2, 120) > 10, "{o}");
    }
    assert!(check_case_setups::<Obsidio>(include_str!("perft/reference.txt")) > 0);
}

#[test]
fn a_set_up_that_reads_but_breaks_the_rules_comes_back_with_its_problems() {
    let text = format!("{} w anchor=e5", board(7, &[("c3", 'b')]));
    assert_eq!(
        rejected_problems::<Obsidio>(&opts("size=7"), &text),
        ["anchor=e5: the anchor is the last token placed, but e5 is empty"]
    );
    let text = format!("{} b swap=closed", board(7, &[]));
    assert_eq!(
        rejected_problems::<Obsidio>(&opts("size=7"), &text),
        ["swap=closed: no move has been played on an empty board; write swap=start"]
    );
    let text = format!(
        "{} w swap=swapped",
        board(7, &[("c3", 'b'), ("e3", 'b'), ("c5", 'b')])
    );
    assert_eq!(
        rejected_problems::<Obsidio>(&opts("size=7,tokens=2,pie=false"), &text),
        [
            "black has 3 tokens on the board but only 2 in all (tokens option)",
            "swap=swapped needs the pie rule (pie=true)",
        ]
    );
}

#[test]
fn a_set_up_is_read_as_written_and_checked_under_the_options_given() {
    let text = format!("{} w anchor=c3", board(7, &[("c3", 'b')]));
    let setup = Obsidio::read_setup(&opts("size=7"), &text).unwrap();
    let c3 = 2 * 7 + 2;
    assert_eq!(setup.tokens, [1 << c3, 0]);
    assert_eq!(setup.anchor, Some(c3));
    assert_eq!(setup.swap, SwapState::Closed);
    let g = Obsidio::from_setup(&opts("size=7"), setup.clone()).unwrap();
    assert_eq!(g, Obsidio::from_position(&opts("size=7"), &text).unwrap());
    // A set-up built in code is checked for what no text can say.
    let built = Setup {
        claimer: Some(Side::White),
        last: [None, Some(Move::Place(c3))],
        passes: 3,
        ..setup
    };
    let rejected = Obsidio::from_setup(&opts("size=7"), built.clone()).unwrap_err();
    assert_eq!(rejected.setup, built);
    let Rejection::Problems(problems) = rejected.reason else {
        panic!("{}", rejected.reason)
    };
    assert_eq!(
        problems,
        [
            "passes=3: accepted: 0, 1, 2",
            "claimer=w: white has claimed no target",
            "white's last move 'c3' is not a placement or claim of its own tokens",
        ]
    );
}
