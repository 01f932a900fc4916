//! Reviews: grades, exact values from the game's solver, accuracy, records and refusals.

use boardlab_ai::review::*;
use boardlab_ai::AiError;
use boardlab_core::prelude::*;
use boardlab_core::{GameRecord, Proven, RecordValue, Seat};
use boardlab_sight_reduction::SightReduction;
use boardlab_toy::{self as toy, Toy};
use std::sync::atomic::AtomicBool;

/// Black to move wins only with d2; it plays b3, then White a1 and Black d2.
fn blunder_game() -> (SightReduction, Vec<boardlab_sight_reduction::Move>) {
    let options = SightReduction::info().default_options();
    let start = SightReduction::from_position(&options, "2B1/BW2/WB1W/3W/B3/1B1B/3B/W1W1 b second")
        .unwrap();
    let mut g = start.clone();
    let moves = ["b3", "a1", "d2"]
        .iter()
        .map(|t| g.play_text(t).unwrap())
        .collect();
    (start, moves)
}

#[test]
fn a_review_reports_progress_serialises_and_stops() {
    let (start, moves) = blunder_game();
    for threads in [1, 2] {
        let config = ReviewConfig {
            threads,
            ..ReviewConfig::default()
        };
        let mut seen = Vec::new();
        let r = review(&start, &moves, &config, &AtomicBool::new(false), &mut |p| {
            seen.push(p);
        })
        .unwrap();
        assert_eq!(seen.len(), 4, "one call per position");
        assert_eq!(seen.last(), Some(&Progress { done: 4, total: 4 }));
        assert_eq!(r.positions, 4);
        let grades: Vec<Grade> = r.plies.iter().map(|p| p.grade).collect();
        assert_eq!(grades, [Grade::Blunder, Grade::Best, Grade::Best]);
        assert_eq!(
            r.plies[0].exact.map(|e| e.verdict),
            Some(Verdict::ThrowsWinAway)
        );
        assert_eq!(r.plies[0].value_text, "White wins in 3 moves");
        assert_eq!(r.side(Seat::Second).unwrap().blunders, 1);
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<Review>(&json).unwrap(), r);
        let stop = AtomicBool::new(true);
        let e = review(&start, &moves, &config, &stop, &mut |_| {}).unwrap_err();
        assert!(matches!(e, ReviewError::Stopped), "{e}");
    }
}

#[test]
fn a_game_without_bot_support_is_refused() {
    let toy = Toy::new(&toy::options(), 0).unwrap();
    let e = review(
        &toy,
        &[],
        &ReviewConfig::default(),
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap_err();
    assert!(matches!(e, ReviewError::Ai(AiError::Unsupported(_))), "{e}");
    let (start, moves) = blunder_game();
    let config = ReviewConfig {
        threads: 300,
        ..ReviewConfig::default()
    };
    let e = review(
        &start,
        &moves,
        &config,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert!(matches!(e, Err(ReviewError::Config(_))));
}

#[test]
fn annotate_writes_values_and_comments() {
    let (start, moves) = blunder_game();
    let r = review(
        &start,
        &moves,
        &ReviewConfig::default(),
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap();
    let mut record = GameRecord::new(&start, 0, Some(start.position_text()));
    record.moves = vec!["b3".into(), "a1".into(), "d2".into()];
    let a = annotate(&record, &r);
    let n = a.note(1).unwrap();
    assert_eq!(
        n.value,
        Some(RecordValue::Proven(Proven::loss_in(Seat::Second, 3)))
    );
    assert!(n
        .comment
        .as_deref()
        .unwrap()
        .starts_with("?? Throws the win away"));
    assert_eq!(a.notes.len(), 3);
    assert_eq!(GameRecord::parse(&a.to_text()).unwrap(), a);
}

#[test]
fn grades_follow_the_thresholds() {
    assert_eq!(Grade::from_loss(0.9, true), Grade::Best);
    assert_eq!(Grade::from_loss(0.0, false), Grade::Good);
    assert_eq!(Grade::from_loss(0.049, false), Grade::Good);
    assert_eq!(Grade::from_loss(INACCURACY, false), Grade::Inaccuracy);
    assert_eq!(Grade::from_loss(0.099, false), Grade::Inaccuracy);
    assert_eq!(Grade::from_loss(MISTAKE, false), Grade::Mistake);
    assert_eq!(Grade::from_loss(0.149, false), Grade::Mistake);
    assert_eq!(Grade::from_loss(BLUNDER, false), Grade::Blunder);
    assert_eq!(Grade::from_loss(1.0, false), Grade::Blunder);
    let symbols: Vec<&str> = [
        Grade::Best,
        Grade::Good,
        Grade::Inaccuracy,
        Grade::Mistake,
        Grade::Blunder,
    ]
    .iter()
    .map(|g| g.symbol())
    .collect();
    assert_eq!(symbols, ["", "", "?!", "?", "??"]);
}

#[test]
fn accuracy_falls_with_the_loss() {
    assert_eq!(move_accuracy(0.0), 100.0);
    assert_eq!(move_accuracy(-0.1), 100.0, "a gain counts as no loss");
    assert!(
        (move_accuracy(0.05) - 80.8).abs() < 0.1,
        "{}",
        move_accuracy(0.05)
    );
    assert!(
        (move_accuracy(0.15) - 51.5).abs() < 0.1,
        "{}",
        move_accuracy(0.15)
    );
    assert_eq!(move_accuracy(1.0), 0.0);
    let mut last = 101.0;
    for i in 0..=100 {
        let a = move_accuracy(f64::from(i) / 100.0);
        assert!(a <= last && (0.0..=100.0).contains(&a));
        last = a;
    }
    assert_eq!(side_accuracy(&[]), None);
    assert_eq!(side_accuracy(&[100.0, 100.0]), Some(100.0));
    // One thrown-away win among nine perfect moves costs a tenth.
    let one_blunder = side_accuracy(&[[100.0; 9].as_slice(), &[0.0]].concat()).unwrap();
    assert!((one_blunder - 90.0).abs() < 1e-9, "{one_blunder}");
}
