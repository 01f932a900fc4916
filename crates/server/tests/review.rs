//! Game reviews over the API: started, reported live, stored, answered again from the store
//! after a restart; uploaded records reviewed, bad ones refused with the first bad move.

mod common;

use common::{legal, TestServer};
use serde_json::{json, Value};
use std::time::Duration;

/// A finished same-screen Sight Reduction game (first legal move each turn); its id.
async fn finished_game(s: &TestServer, seed: u64) -> String {
    let (id, t, mut st) = s
        .create(json!({ "game": "sight-reduction", "seed": seed, "same_screen": true }))
        .await;
    let tok = t["first"].as_str().unwrap().to_string();
    while st["status"] == "ongoing" {
        let mv = legal(&st)[0].clone();
        let (c, next) = s.play(&id, &mv, &tok, None).await;
        assert_eq!(c, 200, "{next}");
        st = next;
    }
    id
}

/// Polls the review until it is done (at most `secs` seconds).
async fn wait_done(s: &TestServer, id: &str, secs: u64) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let (c, v) = s.get(&format!("/api/games/{id}/review")).await;
        assert_eq!(c, 200, "{v}");
        if v["status"] == "done" {
            return v;
        }
        assert_eq!(v["status"], "running", "{v}");
        assert!(
            tokio::time::Instant::now() < deadline,
            "review not done: {v}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn check_review(v: &Value, moves: usize) {
    let r = &v["review"];
    let plies = r["plies"].as_array().unwrap();
    assert_eq!(plies.len(), moves, "{r}");
    assert_eq!(r["best_cells"].as_array().unwrap().len(), moves);
    assert!(r["start"].is_string());
    for p in plies {
        assert!(
            ["best", "good", "inaccuracy", "mistake", "blunder"]
                .contains(&p["grade"].as_str().unwrap()),
            "{p}"
        );
        assert!(p["comment"].is_string() && p["value_text"].is_string());
    }
    assert_eq!(r["sides"].as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_runs_once_reports_progress_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let mut databases = vec![format!(
        "sqlite://{}",
        dir.path().join("review.db").display()
    )];
    databases.extend(common::postgres_url());
    for db in databases {
        review_and_restart(&db).await;
    }
}

async fn review_and_restart(db: &str) {
    let s = TestServer::on(db).await;
    let id = finished_game(&s, 4).await;
    let moves = s.state(&id).await["moves"].as_array().unwrap().len();

    let (c, v) = s.get(&format!("/api/games/{id}/review")).await;
    assert_eq!((c, v["code"].as_str()), (404, Some("no_review")), "{v}");

    // Live progress on the game's event stream.
    let mut events = s
        .client
        .get(s.url(&format!("/api/games/{id}/events")))
        .send()
        .await
        .unwrap();

    // Several requests at once start one review.
    let path = format!("/api/games/{id}/review");
    let empty = json!({});
    let posts = futures_util::future::join_all((0..3).map(|_| s.post(&path, &empty))).await;
    for (c, v) in &posts {
        assert!(
            *c == 202 && v["status"] == "running" || *c == 200 && v["status"] == "done",
            "{c} {v}"
        );
    }
    let mut seen = String::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    while !seen.contains("\"status\":\"done\"") {
        let chunk = tokio::time::timeout_at(deadline, events.chunk())
            .await
            .expect("the review finishes within two minutes")
            .unwrap()
            .expect("the stream stays open");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(seen.contains("event: review"), "{seen}");
    assert!(seen.contains("\"status\":\"running\""), "{seen}");
    // One review ran: its progress counted up once, never restarting.
    let dones: Vec<u64> = seen
        .lines()
        .filter(|l| l.contains("\"type\":\"review\"") && l.contains("running"))
        .map(|l| {
            let v: Value = serde_json::from_str(l.trim_start_matches("data: ")).unwrap();
            v["review"]["done"].as_u64().unwrap()
        })
        .collect();
    assert!(dones.windows(2).all(|w| w[0] < w[1]), "{dones:?}");
    assert_eq!(dones.last().copied(), Some(moves as u64 + 1));
    drop(events);

    let first = wait_done(&s, &id, 10).await;
    assert_eq!(first["current"], true);
    check_review(&first, moves);
    // Asking again costs nothing: the stored review, at once.
    let (c, again) = s.post(&format!("/api/games/{id}/review"), &json!({})).await;
    assert_eq!(c, 200, "{again}");
    assert_eq!(again, first);
    s.stop().await;

    // After a restart the review is read from the database.
    let s = TestServer::on(db).await;
    let (c, after) = s.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(c, 200, "{after}");
    assert_eq!(after, first);
    let (c, again) = s.post(&format!("/api/games/{id}/review"), &json!({})).await;
    assert_eq!((c, &again), (200, &first));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploaded_records_are_reviewed_and_bad_ones_refused() {
    let s = TestServer::sqlite().await;
    let id = finished_game(&s, 11).await;
    let moves = s.state(&id).await["moves"].as_array().unwrap().len();
    for format in ["json", "pgn"] {
        let text = s
            .client
            .get(s.url(&format!("/api/games/{id}/record?format={format}")))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let (c, v) = s.post("/api/reviews", &json!({ "record": text })).await;
        assert_eq!(c, 200, "{format}: {v}");
        check_review(&json!({ "review": v }), moves);
    }

    // The first bad move is named.
    let (_, record) = s.get(&format!("/api/games/{id}/record")).await;
    let mut bad = record.clone();
    bad["moves"][1] = json!("z9");
    let (c, v) = s
        .post("/api/reviews", &json!({ "record": bad.to_string() }))
        .await;
    assert_eq!(c, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("move 2"), "{v}");
    let mut empty = record.clone();
    empty["moves"] = json!([]);
    empty["result"] = Value::Null;
    for body in [
        json!({ "record": "not a record" }),
        json!({ "record": empty.to_string() }),
        json!({ "record": record.to_string().replace("sight-reduction", "chess") }),
        json!({ "text": "x" }),
        json!({}),
    ] {
        let (c, v) = s.post("/api/reviews", &body).await;
        assert_eq!(c, 400, "{body}: {v}");
        assert!(v["error"].is_string());
    }

    // A game without moves has nothing to review; unknown games are 404.
    let (fresh, _, _) = s
        .create(json!({ "game": "obsidio", "same_screen": true }))
        .await;
    let (c, v) = s
        .post(&format!("/api/games/{fresh}/review"), &json!({}))
        .await;
    assert_eq!(c, 409, "{v}");
    let (c, _) = s
        .post("/api/games/0000000000000000/review", &json!({}))
        .await;
    assert_eq!(c, 404);
    let (c, _) = s.get("/api/games/0000000000000000/review").await;
    assert_eq!(c, 404);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_stream_sends_a_first_evaluation_and_better_ones() {
    let s = TestServer::sqlite().await;
    let (c, p) = s
        .post("/api/positions", &json!({ "game": "opprimo", "seed": 2 }))
        .await;
    assert_eq!(c, 200);
    let position = p["position"].as_str().unwrap();
    let url = reqwest::Url::parse_with_params(
        &s.url("/api/analysis"),
        &[("game", "opprimo"), ("position", position)],
    )
    .unwrap();
    let mut r = s.client.get(url).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let mut text = String::new();
    while !text.contains("event: end") {
        let chunk = tokio::time::timeout(Duration::from_secs(30), r.chunk())
            .await
            .expect("evaluations keep coming")
            .unwrap()
            .expect("the stream ends with an end event");
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    let evals: Vec<Value> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter(|d| d.contains("\"step\""))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    assert!(!evals.is_empty(), "{text}");
    for (i, e) in evals.iter().enumerate() {
        assert_eq!(e["step"], i + 1);
        assert!(
            legal(&p).contains(&e["move"].as_str().unwrap().to_string()),
            "{e}"
        );
        assert!(e["text"].is_string());
        let score = e["first_score"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&score));
    }
    assert_eq!(evals.last().unwrap()["last"], true);

    // Bad input is refused before any search.
    for bad in [
        vec![("game", "chess"), ("position", position)],
        vec![("game", "opprimo"), ("position", "nonsense")],
        vec![
            ("game", "opprimo"),
            ("position", position),
            ("options", "castle=9"),
        ],
        vec![("game", "opprimo")],
    ] {
        let url = reqwest::Url::parse_with_params(&s.url("/api/analysis"), &bad).unwrap();
        let r = s.client.get(url).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 400, "{bad:?}");
    }
    s.stop().await;
}
