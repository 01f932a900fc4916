//! Position texts read in two steps: the set-up as written, then the rules' checks.

use boardlab_core::testkit::{check_case_setups, check_setups, rejected_problems};
use boardlab_core::{Game, Notation, Options, Rejection};
use boardlab_sight_reduction::{Phase, Setup, SightReduction, BLACK};

fn opts(text: &str) -> Options {
    SightReduction::info().parse_options(text).unwrap()
}

#[test]
fn set_ups_of_played_and_reference_positions_check_into_the_same_game() {
    for o in [
        "default",
        "removal=pair,sight=any",
        "setup=fair",
        "setup=deterministic,first=black",
        "first=black,mode=solitaire",
    ] {
        assert!(
            check_setups::<SightReduction>(&opts(o), 0..3, 60) > 10,
            "{o}"
        );
    }
    assert!(check_case_setups::<SightReduction>(include_str!("perft/reference.txt")) > 10);
}

#[test]
fn a_set_up_that_reads_but_breaks_the_rules_comes_back_with_its_problems() {
    let full = "WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/BWBW";
    let problems =
        rejected_problems::<SightReduction>(&opts("default"), &format!("{full} w arrange 1"));
    assert_eq!(
        problems,
        [
            "fair set-up phases need setup=fair",
            "during the fair set-up the colour to move is written '-'",
        ]
    );
    let problems =
        rejected_problems::<SightReduction>(&opts("mode=solitaire"), "4/4/4/4/4/4/4/W1WB b second");
    assert_eq!(problems, ["solitaire has only the first seat"]);
    let problems = rejected_problems::<SightReduction>(
        &opts("setup=deterministic"),
        "4/4/4/4/4/4/4/WW2 w place",
    );
    assert_eq!(
        problems,
        ["after 2 placements with first=white it is white's turn to place"]
    );
}

#[test]
fn a_set_up_is_read_as_written_and_checked_under_the_options_given() {
    let setup =
        SightReduction::read_setup(&opts("default"), "4/4/4/4/4/4/4/W1WB b second").unwrap();
    assert_eq!(
        setup,
        Setup {
            board: [0b0101, 0b1000],
            side: Some(BLACK),
            phase: None,
            first_seat: None,
            second: true,
        }
    );
    let g = SightReduction::from_setup(&opts("default"), setup.clone()).unwrap();
    assert_eq!(g.position_text(), "4/4/4/4/4/4/4/W1WB b second");
    // Options that make no game: the set-up comes back with the options' error.
    let rejected = SightReduction::from_setup(&opts("keep=b2,c7"), setup.clone()).unwrap_err();
    assert_eq!(rejected.setup, setup);
    assert!(
        matches!(rejected.reason, Rejection::Options(_)),
        "{rejected}"
    );
    // A set-up built in code is checked for what no text can say.
    let built = Setup {
        board: [0b11, 0b10],
        side: None,
        phase: Some(Phase::ChooseFirst),
        first_seat: None,
        second: false,
    };
    let rejected = SightReduction::from_setup(&opts("setup=fair"), built).unwrap_err();
    let Rejection::Problems(problems) = rejected.reason else {
        panic!("{}", rejected.reason)
    };
    assert_eq!(problems[0], "b1 hold both a White and a Black piece");
    assert!(
        problems.iter().any(|p| p.contains("first-player choice")),
        "{problems:?}"
    );
}
