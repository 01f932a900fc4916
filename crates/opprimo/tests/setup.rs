//! Position texts read in two steps: the set-up as written, then the rules' checks.

use boardlab_core::testkit::{check_case_setups, check_setups, rejected_problems};
use boardlab_core::{Game, Notation, Options, Rejection};
use boardlab_opprimo::{parse_point, Opprimo, Setup};

fn opts(text: &str) -> Options {
    Opprimo::info().parse_options(text).unwrap()
}

#[test]
fn set_ups_of_played_and_reference_positions_check_into_the_same_game() {
    for o in ["castle=band", "castle=hex", "castle=hex,max-plies=7"] {
        assert!(check_setups::<Opprimo>(&opts(o), 0..3, 150) > 10, "{o}");
    }
    assert!(check_case_setups::<Opprimo>(include_str!("perft/reference.txt")) > 0);
}

#[test]
fn a_set_up_that_reads_but_breaks_the_rules_comes_back_with_its_problems() {
    let o = opts("default");
    let problems = rejected_problems::<Opprimo>(&o, "3/4/3/4/3/4/3/4/3/4/r2/r3/r2 b1a - r 9");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("Yellow's King is trapped but Yellow is not to move"));
    let problems =
        rejected_problems::<Opprimo>(&o, "rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy d5c - y 401");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("outside its castle"), "{problems:?}");
    assert_eq!(problems[1], "401 plies played is more than max-plies=400");
}

#[test]
fn a_set_up_is_read_as_written_and_checked_under_the_options_given() {
    let text = "rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy - - y 0";
    let setup = Opprimo::read_setup(&opts("default"), text).unwrap();
    assert_eq!(setup, Setup::start());
    let g = Opprimo::from_setup(&opts("default"), setup).unwrap();
    assert_eq!(g.position_text(), text);
    // A set-up built in code is checked for what no text can say.
    let mut built = Setup::empty();
    let d7 = parse_point("d7").unwrap();
    built.men = [1 << d7, 1 << d7];
    let rejected = Opprimo::from_setup(&opts("max-plies=5"), built.clone()).unwrap_err();
    assert_eq!(rejected.setup, built);
    let Rejection::Problems(problems) = rejected.reason else {
        panic!("{}", rejected.reason)
    };
    assert_eq!(problems[0], "d7 hold both a Yellow and a Red soldier");
}
