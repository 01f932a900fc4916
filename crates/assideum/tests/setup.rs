//! Position texts read in two steps: the set-up as written, then the rules' checks.

use boardlab_assideum::{Assideum, Kind, START_POSITION, WHITE};
use boardlab_core::testkit::{check_case_setups, check_setups, rejected_problems};
use boardlab_core::{Game, Notation, Options, Rejection};

fn opts(text: &str) -> Options {
    Assideum::info().parse_options(text).unwrap()
}

#[test]
fn set_ups_of_played_and_reference_positions_check_into_the_same_game() {
    for o in ["default", "ranger-range=0", "ranger-range=7,quiet-plies=25"] {
        assert!(check_setups::<Assideum>(&opts(o), 0..2, 80) > 10, "{o}");
    }
    assert!(check_case_setups::<Assideum>(include_str!("perft/reference.txt")) > 0);
}

#[test]
fn a_set_up_that_reads_but_breaks_the_rules_comes_back_with_its_problems() {
    let o = opts("default");
    assert_eq!(
        rejected_problems::<Assideum>(&o, "4k3/8/8/8/8/8/8/8 w"),
        ["White needs exactly one Commander, found 0"]
    );
    assert_eq!(
        rejected_problems::<Assideum>(&opts("quiet-plies=5"), "4k3/8/8/8/8/8/8/4K3 w 6"),
        ["the quiet-ply count 6 is above quiet-plies=5 (the game ends there)"]
    );
    let problems = rejected_problems::<Assideum>(&o, "4k3/8/8/8/8/8/8/V3K3 b");
    assert_eq!(
        problems,
        ["a1: an unpromoted White Ved'rin on its own back rank (it only moves forward)"]
    );
}

#[test]
fn a_set_up_is_read_as_written_and_checked_under_the_options_given() {
    let setup = Assideum::read_setup(&opts("ranger-range=2"), START_POSITION).unwrap();
    assert_eq!(setup.quiet, 0);
    assert_eq!(setup.board.side, WHITE);
    let g = Assideum::from_setup(&opts("default"), setup).unwrap();
    assert_eq!(g.position_text(), START_POSITION);
    assert_eq!(g, Assideum::new(&opts("default"), 0).unwrap());
    // A set-up built in code is checked for what no text can say.
    let mut built = setup;
    built.board.kind[Kind::Striker as usize] |= 1 << 4;
    built.board.promoted |= 1 << 2;
    let rejected = Assideum::from_setup(&opts("default"), built).unwrap_err();
    assert_eq!(rejected.setup, built);
    let Rejection::Problems(problems) = rejected.reason else {
        panic!("{}", rejected.reason)
    };
    assert_eq!(
        problems[..2],
        [
            "e1: two ground pieces on one square",
            "c1: a promotion mark without a Ved'rin",
        ]
    );
}
