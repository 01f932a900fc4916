//! Records written before moves could carry notes (values and comments) still load, replay,
//! and are written back byte for byte as they were.
//!
//! `tests/records/` holds records of every game as `boardlab arena --records` and
//! `boardlab play --record` wrote them then (text and JSON), and two written by hand: one with
//! comment lines, blank lines, a lower-case tag and a resignation, one in JSON with a start
//! position and nothing optional.

use boardlab_core::GameRecord;
use boardlab_games::GameKind;
use std::path::PathBuf;

fn records() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/records");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn old_records_load_replay_and_keep_their_form() {
    let all = records();
    let games: Vec<String> = all
        .iter()
        .map(|(n, _)| n.split(['.', '-']).next().unwrap().to_string())
        .collect();
    for kind in GameKind::all() {
        let first = kind.name().split('-').next().unwrap();
        assert!(
            games.iter().any(|g| g == first),
            "no old record of {kind:?}"
        );
    }
    for (name, text) in &all {
        let r = GameRecord::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(r.notes.is_empty(), "{name}");
        let kind: GameKind = r.game.parse().unwrap();
        let (_, moves) = kind.replay(&r).unwrap_or_else(|e| panic!("{name}: {e}"));
        let played = moves.len();
        assert_eq!(played, r.moves.len(), "{name}");
        assert!(played > 0, "{name}");
        // Both forms read back to the same record.
        assert_eq!(GameRecord::parse(&r.to_text()).unwrap(), r, "{name}");
        assert_eq!(GameRecord::parse(&r.to_json()).unwrap(), r, "{name}");
        // Records written by boardlab come out exactly as they were written.
        if !name.contains("resigned") && !name.contains("position") {
            let written = if name.ends_with(".json") {
                r.to_json()
            } else {
                r.to_text()
            };
            assert_eq!(written.trim_end(), text.trim_end(), "{name}");
        }
    }
}

#[test]
fn hand_written_records_keep_what_they_say() {
    let all = records();
    let get = |n: &str| {
        let (_, text) = all.iter().find(|(name, _)| name == n).unwrap();
        GameRecord::parse(text).unwrap()
    };
    let r = get("sight-reduction-resigned.txt");
    assert_eq!(r.moves, ["b2", "c8+d8", "a3"]);
    assert_eq!(r.options["removal"], "pair");
    assert_eq!(r.seed, 7);
    assert_eq!(r.result.as_deref(), Some("black"));
    assert_eq!(r.termination.as_deref(), Some("resignation"));
    assert_eq!(r.finished.as_deref(), Some("2026-11-22T10:04:12Z"));
    let r = get("sight-reduction-position.json");
    assert_eq!(
        r.position.as_deref(),
        Some("2B1/BW2/WB1W/3W/B3/1B1B/3B/W1W1 b second")
    );
    assert_eq!(r.seats.first, "");
    assert_eq!(r.result, None);
}
