//! The JSON API against real servers on loopback (SQLite, and PostgreSQL when configured).

mod common;

use boardlab_core::GameRecord;
use boardlab_games::{AnyGame, GameKind};
use common::{legal, version, TestServer};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catalog_lists_every_game_with_colours_and_options() {
    let s = TestServer::sqlite().await;
    let (status, c) = s.get("/api/catalog").await;
    assert_eq!(status, 200);
    let games = c["games"].as_array().unwrap();
    assert_eq!(games.len(), GameKind::all().len());
    for (g, kind) in games.iter().zip(GameKind::all()) {
        let info = kind.info();
        assert_eq!(g["name"], info.name);
        assert_eq!(g["colours"].as_array().unwrap().len(), 2);
        let options = g["options"].as_array().unwrap();
        assert_eq!(options.len(), info.options.len());
        for (o, spec) in options.iter().zip(info.options) {
            assert_eq!(o["name"], spec.name);
            assert_eq!(o["default"], spec.default);
            assert!(o["values"]["kind"].is_string());
        }
        // The legend: the game's own words, each with a small board to draw.
        let legend = g["legend"].as_array().unwrap();
        assert_eq!(legend.len(), kind.legend().len(), "{kind}");
        assert!(legend.len() >= 2, "{kind}: no legend");
        for (item, own) in legend.iter().zip(kind.legend()) {
            assert_eq!(item["name"], own.name);
            assert_eq!(item["text"], own.text);
            let cells = item["sample"]["cells"].as_array().unwrap();
            assert!(!cells.is_empty(), "{kind}: {} has no picture", own.name);
            assert!(item["sample"]["labels"].as_array().unwrap().is_empty());
        }
    }
    assert!(c["players"].as_str().unwrap().contains("computer:"));
    // Every game of the list: the server draws its board, and every level and kind of bot
    // resolves for it.
    for kind in GameKind::all() {
        let (_, _, st) = s.create(json!({ "game": kind.name() })).await;
        assert!(st["board"].is_object(), "{}: no board: {st}", kind.name());
        let specs = (1..=boardlab_ai::spec::MAX_LEVEL)
            .map(|n| format!("level:{n}"))
            .chain(
                [
                    "random",
                    "best",
                    "mcts:plain,iterations=10",
                    "alphabeta:depth=1",
                ]
                .map(String::from),
            );
        for spec in specs {
            let parsed: boardlab_ai::BotSpec = spec.parse().unwrap();
            kind.resolve(&parsed)
                .unwrap_or_else(|e| panic!("{} has no bot for {spec}: {e}", kind.name()));
        }
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_can_be_created_played_and_reloaded() {
    for s in TestServer::all().await {
        for kind in GameKind::all() {
            let (id, tokens, state) = s.create(json!({ "game": kind.name(), "seed": 11 })).await;
            assert_eq!(state["game"], kind.name());
            assert_eq!(state["version"], 0);
            assert_eq!(state["status"], "ongoing");
            assert!(tokens["first"].as_str().unwrap().len() == 32);
            assert!(tokens["second"].as_str().unwrap().len() == 32);
            let board = &state["board"];
            assert!(
                board["cells"].as_array().is_some_and(|c| !c.is_empty()),
                "{kind}: no board"
            );
            // Play up to 12 moves with the token of the seat to move.
            let mut st = state;
            for ply in 0..12 {
                if st["status"] != "ongoing" {
                    break;
                }
                let seat = st["to_move"]["seat"].as_str().unwrap().to_string();
                let moves = legal(&st);
                let mv = &moves[(ply * 7) % moves.len()];
                let (code, next) = s
                    .play(&id, mv, tokens[&seat].as_str().unwrap(), Some(version(&st)))
                    .await;
                assert_eq!(code, 200, "{kind} {mv}: {next}");
                assert_eq!(version(&next), version(&st) + 1);
                assert_eq!(
                    next["moves"].as_array().unwrap().last().unwrap()["move"],
                    mv.as_str()
                );
                st = next;
            }
            // The stored state replays to the same position.
            assert_eq!(s.state(&id).await, st);
            let opts = kind.info().default_options();
            let mut g = AnyGame::new(*kind, &opts, 11).unwrap();
            for m in st["moves"].as_array().unwrap() {
                g.play_text(m["move"].as_str().unwrap()).unwrap();
            }
            assert_eq!(st["position"], g.position_text());
        }
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_errors_have_the_right_status_and_change_nothing() {
    for s in TestServer::all().await {
        let (id, tokens, state) = s
            .create(json!({ "game": "sight-reduction", "seed": 3 }))
            .await;
        let first = tokens["first"].as_str().unwrap();
        let second = tokens["second"].as_str().unwrap();
        let legal_move = legal(&state)[0].clone();
        let before = s.state(&id).await;
        let path = format!("/api/games/{id}/moves");
        let cases: Vec<(Value, u16, &str)> = vec![
            (
                json!({ "move": "zz99", "token": first }),
                400,
                "malformed_move",
            ),
            (json!({ "move": "", "token": first }), 400, "malformed_move"),
            (
                json!({ "move": "x".repeat(500), "token": first }),
                400,
                "malformed_move",
            ),
            (json!({ "move": legal_move }), 403, "forbidden"),
            (
                json!({ "move": legal_move, "token": "0".repeat(32) }),
                403,
                "forbidden",
            ),
            (json!({ "move": legal_move, "token": "" }), 403, "forbidden"),
            (
                json!({ "move": legal_move, "token": second }),
                409,
                "not_your_turn",
            ),
            (
                json!({ "move": legal_move, "token": first, "version": 5 }),
                409,
                "stale_version",
            ),
            (
                json!({ "move": legal_move, "token": first, "version": -1 }),
                409,
                "stale_version",
            ),
            (
                json!({ "move": legal_move, "token": first, "extra": 1 }),
                400,
                "bad_request",
            ),
            (json!({ "move": 7, "token": first }), 400, "bad_request"),
            (json!({ "token": first }), 400, "bad_request"),
        ];
        for (body, status, code) in cases {
            let (got, v) = s.post(&path, &body).await;
            assert_eq!(got, status, "{body}: {v}");
            assert_eq!(v["code"], code, "{body}: {v}");
            assert!(!v["error"].as_str().unwrap().is_empty());
            assert_eq!(s.state(&id).await, before, "{body} changed the game");
        }
        // An illegal move: the first legal move of the *other* colour is not playable now.
        let pos = before["position"].as_str().unwrap();
        let other_side = if pos.ends_with(" w") { "b" } else { "w" };
        let flipped = format!("{} {other_side}", &pos[..pos.len() - 2]);
        let g = AnyGame::from_position(
            GameKind::named("sight-reduction").unwrap(),
            &GameKind::named("sight-reduction")
                .unwrap()
                .info()
                .default_options(),
            &flipped,
        )
        .unwrap();
        let illegal = g
            .legal_moves()
            .into_iter()
            .find(|m| !legal(&before).contains(m))
            .unwrap();
        let (got, v) = s.play(&id, &illegal, first, None).await;
        assert_eq!(got, 400, "{v}");
        assert_eq!(v["code"], "illegal_move");
        assert!(v["error"].as_str().unwrap().contains("illegal move"), "{v}");
        assert_eq!(s.state(&id).await, before);
        // Unknown game.
        let (got, v) = s.play("0123456789abcdef", &legal_move, first, None).await;
        assert_eq!((got, v["code"].as_str()), (404, Some("not_found")));
        // And the right move still works.
        let (got, _) = s.play(&id, &legal_move, first, Some(0)).await;
        assert_eq!(got, 200);
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_one_of_many_concurrent_moves_on_one_version_wins() {
    for s in TestServer::all().await {
        let (id, tokens, state) = s
            .create(json!({ "game": "sight-reduction", "seed": 5, "same_screen": true }))
            .await;
        let token = tokens["first"].as_str().unwrap().to_string();
        let moves = legal(&state);
        let s = std::sync::Arc::new(s);
        let mut tasks = Vec::new();
        for i in 0..16 {
            let s = std::sync::Arc::clone(&s);
            let (id, token, mv) = (id.clone(), token.clone(), moves[i % moves.len()].clone());
            tasks.push(tokio::spawn(async move {
                s.play(&id, &mv, &token, Some(0)).await.0
            }));
        }
        let mut codes = Vec::new();
        for t in tasks {
            codes.push(t.await.unwrap());
        }
        assert_eq!(codes.iter().filter(|&&c| c == 200).count(), 1, "{codes:?}");
        assert!(codes.iter().all(|&c| c == 200 || c == 409), "{codes:?}");
        assert_eq!(version(&s.state(&id).await), 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offers_resignation_and_take_backs() {
    for s in TestServer::all().await {
        // Sight Reduction has no draws: offers are refused there.
        let (id, t, _) = s
            .create(json!({ "game": "sight-reduction", "seed": 9 }))
            .await;
        let (c, v) = s
            .post(
                &format!("/api/games/{id}/draw"),
                &json!({ "token": t["first"], "action": "offer" }),
            )
            .await;
        assert_eq!((c, v["code"].as_str()), (409, Some("not_allowed")), "{v}");
        assert!(v["error"].as_str().unwrap().contains("no draws"), "{v}");
        let new = || json!({ "game": "obsidio", "seed": 9, "options": { "size": "7" } });
        // Draw by agreement.
        let (id, t, st) = s.create(new()).await;
        let (a, b) = (t["first"].as_str().unwrap(), t["second"].as_str().unwrap());
        let draw = |token: &str, action: &str| json!({ "token": token, "action": action });
        let path = format!("/api/games/{id}/draw");
        let (c, v) = s.post(&path, &draw(a, "accept")).await;
        assert_eq!((c, v["code"].as_str()), (409, Some("not_allowed")), "{v}");
        let (c, v) = s.post(&path, &draw(a, "offer")).await;
        assert_eq!(c, 200);
        assert_eq!(v["draw_offer"], "first");
        let (c, _) = s.post(&path, &draw(a, "offer")).await;
        assert_eq!(c, 409);
        let (c, v) = s.post(&path, &draw(a, "dance")).await;
        assert_eq!(c, 400, "{v}");
        let (c, v) = s.post(&path, &draw(b, "accept")).await;
        assert_eq!(c, 200);
        assert_eq!(v["status"], "finished");
        assert_eq!(v["result"]["draw"], true);
        assert_eq!(v["result"]["termination"], "agreement");
        assert_eq!(v["legal_moves"].as_array().unwrap().len(), 0);
        let (c, v) = s.play(&id, &legal(&st)[0], a, None).await;
        assert_eq!((c, v["code"].as_str()), (409, Some("game_over")));
        let (c, text) = {
            let r = s
                .client
                .get(s.url(&format!("/api/games/{id}/record?format=pgn")))
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), r.text().await.unwrap())
        };
        assert_eq!(c, 200);
        let rec = GameRecord::from_text(&text).unwrap();
        assert_eq!(rec.result.as_deref(), Some("draw"));
        assert_eq!(rec.termination.as_deref(), Some("agreement"));

        // A declined offer lapses; the opponent's move also clears an offer.
        let (id, t, st) = s.create(new()).await;
        let (a, b) = (t["first"].as_str().unwrap(), t["second"].as_str().unwrap());
        let path = format!("/api/games/{id}/draw");
        s.post(&path, &draw(b, "offer")).await;
        let (c, v) = s.post(&path, &draw(a, "decline")).await;
        assert_eq!((c, v["draw_offer"].clone()), (200, Value::Null));
        s.post(&path, &draw(b, "offer")).await;
        let (c, v) = s.play(&id, &legal(&st)[0], a, None).await;
        assert_eq!((c, v["draw_offer"].clone()), (200, Value::Null));

        // Resignation: the other seat wins.
        let (c, v) = s
            .post(&format!("/api/games/{id}/resign"), &json!({ "token": b }))
            .await;
        assert_eq!(c, 200);
        assert_eq!(v["result"]["winner"], "first");
        assert_eq!(v["result"]["termination"], "resignation");
        let (c, _) = s
            .post(&format!("/api/games/{id}/resign"), &json!({ "token": a }))
            .await;
        assert_eq!(c, 409);

        // Take-back between two people: requested, accepted, two plies undone.
        let (id, t, st) = s.create(new()).await;
        let (a, b) = (t["first"].as_str().unwrap(), t["second"].as_str().unwrap());
        let (_, st1) = s.play(&id, &legal(&st)[0], a, None).await;
        let (_, st2) = s.play(&id, &legal(&st1)[0], b, None).await;
        let undo = format!("/api/games/{id}/undo");
        let (c, v) = s
            .post(&undo, &json!({ "token": a, "action": "request" }))
            .await;
        assert_eq!((c, v["undo_request"].as_str()), (200, Some("first")));
        assert_eq!(v["moves"], st2["moves"]);
        let (c, _) = s
            .post(&undo, &json!({ "token": a, "action": "accept" }))
            .await;
        assert_eq!(c, 409);
        let (c, v) = s
            .post(&undo, &json!({ "token": b, "action": "accept" }))
            .await;
        assert_eq!(c, 200);
        assert_eq!(v["moves"].as_array().unwrap().len(), 0);
        assert_eq!(v["position"], st["position"]);
        assert_eq!(v["to_move"]["seat"], "first");
        // Declined request.
        let (_, st1) = s.play(&id, &legal(&st)[0], a, None).await;
        s.post(&undo, &json!({ "token": a, "action": "request" }))
            .await;
        let (c, v) = s
            .post(&undo, &json!({ "token": b, "action": "decline" }))
            .await;
        assert_eq!((c, v["undo_request"].clone()), (200, Value::Null));
        assert_eq!(v["moves"], st1["moves"]);
        let (c, _) = s
            .post(&undo, &json!({ "token": b, "action": "request" }))
            .await;
        assert_eq!(c, 409, "the second seat has not moved yet");

        // Same screen: take-back and draw at once.
        let (id, t, st) = s
            .create(json!({ "game": "obsidio", "seed": 9, "same_screen": true }))
            .await;
        let tok = t["first"].as_str().unwrap();
        assert_eq!(t["second"], t["first"]);
        let (_, st1) = s.play(&id, &legal(&st)[0], tok, None).await;
        let (_, st2) = s.play(&id, &legal(&st1)[0], tok, None).await;
        let (c, v) = s
            .post(
                &format!("/api/games/{id}/undo"),
                &json!({ "token": tok, "action": "request" }),
            )
            .await;
        assert_eq!(c, 200);
        assert_eq!(v["moves"], st1["moves"]);
        assert_ne!(v["moves"], st2["moves"]);
        let (c, v) = s
            .post(
                &format!("/api/games/{id}/draw"),
                &json!({ "token": tok, "action": "offer" }),
            )
            .await;
        assert_eq!(
            (c, v["result"]["termination"].as_str()),
            (200, Some("agreement"))
        );
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_replay_through_the_rules() {
    let s = TestServer::sqlite().await;
    let (id, t, mut st) = s
        .create(json!({
            "game": "sight-reduction",
            "options": { "removal": "pair", "sight": "any" },
            "seed": 21,
            "same_screen": true
        }))
        .await;
    let tok = t["first"].as_str().unwrap();
    let mut i = 0;
    while st["status"] == "ongoing" {
        let moves = legal(&st);
        let (c, next) = s.play(&id, &moves[i % moves.len()], tok, None).await;
        assert_eq!(c, 200);
        st = next;
        i += 3;
    }
    let (c, rec) = s.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(c, 200);
    let rec: GameRecord = serde_json::from_value(rec).unwrap();
    assert_eq!(rec.game, "sight-reduction");
    assert_eq!(rec.seed, 21);
    assert_eq!(rec.options.get("removal").map(String::as_str), Some("pair"));
    assert_eq!(rec.moves.len(), st["moves"].as_array().unwrap().len());
    assert_eq!(rec.result.as_deref(), st["result"]["tag"].as_str());
    let (g, _) = rec
        .replay::<boardlab_sight_reduction::SightReduction>()
        .unwrap();
    assert_eq!(
        boardlab_core::Notation::position_text(&g),
        st["position"].as_str().unwrap()
    );
    let text = s
        .client
        .get(s.url(&format!("/api/games/{id}/record?format=pgn")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(GameRecord::from_text(&text).unwrap(), rec);
    let (c, v) = s.get(&format!("/api/games/{id}/record?format=xml")).await;
    assert_eq!(c, 400);
    assert!(v["error"].as_str().unwrap().contains("json, pgn"));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recent_games_are_listed_newest_first() {
    for s in TestServer::all().await {
        let mut ids = Vec::new();
        for seed in 0..3 {
            let (id, _, _) = s
                .create(json!({ "game": "sight-reduction", "seed": seed }))
                .await;
            ids.push(id);
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let (c, v) = s.get("/api/games?limit=100&game=sight-reduction").await;
        assert_eq!(c, 200);
        let listed: Vec<&str> = v["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap())
            .collect();
        let pos: Vec<usize> = ids
            .iter()
            .map(|id| listed.iter().position(|l| l == id).expect("listed"))
            .collect();
        assert!(pos[0] > pos[1] && pos[1] > pos[2], "{pos:?}");
        let g = &v["games"][pos[2]];
        assert_eq!(g["status"], "ongoing");
        assert_eq!(g["seats"]["first"], "human");
        assert_eq!(g["moves"], 0);
        let (c, v) = s.get("/api/games?status=finished&limit=100").await;
        assert_eq!(c, 200);
        assert!(v["games"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["status"] == "finished"));
        for bad in [
            "limit=0",
            "limit=101",
            "limit=x",
            "status=won",
            "game=chess",
            "sort=up",
        ] {
            let (c, v) = s.get(&format!("/api/games?{bad}")).await;
            assert_eq!(c, 400, "{bad}: {v}");
        }
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn earlier_positions_hints_and_rules_pages() {
    let s = TestServer::sqlite().await;
    let (id, t, st0) = s
        .create(json!({ "game": "sight-reduction", "seed": 6, "same_screen": true }))
        .await;
    let tok = t["first"].as_str().unwrap();
    let mut states = vec![st0];
    for _ in 0..4 {
        let cur = states.last().unwrap();
        let (c, next) = s
            .play(&id, &legal(cur)[1 % legal(cur).len()], tok, None)
            .await;
        assert_eq!(c, 200);
        states.push(next);
    }
    for (ply, st) in states.iter().enumerate() {
        let (c, at) = s.get(&format!("/api/games/{id}/at/{ply}")).await;
        assert_eq!(c, 200, "{at}");
        assert_eq!(at["ply"], ply);
        assert_eq!(at["position"], st["position"]);
        assert_eq!(at["board"], st["board"]);
        assert_eq!(at["legal_moves"], st["legal_moves"]);
        assert_eq!(at["to_move"], st["to_move"]);
        let last = if ply == 0 {
            Value::Null
        } else {
            st["moves"][ply - 1]["move"].clone()
        };
        assert_eq!(at["last_move"], last);
    }
    for bad in ["5", "99", "-1", "x", "1.5"] {
        let (c, v) = s.get(&format!("/api/games/{id}/at/{bad}")).await;
        assert_eq!(c, 400, "{bad}: {v}");
    }
    let (c, _) = s.get("/api/games/0000000000000000/at/0").await;
    assert_eq!(c, 404);

    // A hint is a legal move; a finished game has none.
    let (c, h) = s.get(&format!("/api/games/{id}/hint")).await;
    assert_eq!(c, 200, "{h}");
    assert!(legal(states.last().unwrap()).contains(&h["move"].as_str().unwrap().to_string()));
    assert!(h["exact"].is_boolean() && h["text"].is_string());
    if h["exact"] == true {
        assert!(["win", "loss", "draw"].contains(&h["value"].as_str().unwrap()));
    }
    s.post(&format!("/api/games/{id}/resign"), &json!({ "token": tok }))
        .await;
    let (c, v) = s.get(&format!("/api/games/{id}/hint")).await;
    assert_eq!((c, v["code"].as_str()), (409, Some("game_over")));

    // Rules pages and levels.
    for kind in GameKind::all() {
        let r = s
            .client
            .get(s.url(&format!("/api/rules/{}", kind.name())))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200, "{kind}");
        assert!(r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/markdown"));
        assert!(r.text().await.unwrap().starts_with('#'));
    }
    let (c, _) = s.get("/api/rules/chess").await;
    assert_eq!(c, 404);
    // The findings pages, with their charts beside them.
    let text = |path: &str| fetch_text(&s, path.to_string());
    let (c, kind, md) = text("/api/findings/sight-reduction").await;
    assert_eq!((c, kind.starts_with("text/markdown")), (200, true), "{md}");
    let (c, _, html) = text("/api/findings/sight-reduction?format=html").await;
    assert_eq!(c, 200);
    assert!(html.contains("<h1>") && html.contains("<table>"), "{html}");
    let chart = html
        .split("src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a chart")
        .to_string();
    let (c, kind, svg) = text(&format!("/findings/{chart}")).await;
    assert_eq!((c, kind.as_str()), (200, "image/svg+xml"), "{chart}");
    assert!(svg.contains("<svg"));
    let (c, _, readme) = text("/api/findings/README?format=html").await;
    assert_eq!(c, 200);
    assert!(readme.contains("Wilson"), "the metrics are defined");
    for bad in ["chess", "..%2Fapi", "README.md", "%2E%2E"] {
        let (c, _, _) = text(&format!("/api/findings/{bad}")).await;
        assert_eq!(c, 404, "{bad}");
    }
    let (c, _, _) = text("/findings/..%2F..%2FCargo.toml.svg").await;
    assert_eq!(c, 404);
    let (c, _, _) = text("/api/findings/sight-reduction?format=pdf").await;
    assert_eq!(c, 400);
    let (_, cat) = s.get("/api/catalog").await;
    assert_eq!(cat["levels"], json!({ "min": 1, "max": 10, "default": 3 }));
    s.stop().await;
}

/// Status, content type and body of `GET path`.
async fn fetch_text(s: &TestServer, path: String) -> (u16, String, String) {
    let r = s.client.get(s.url(&path)).send().await.unwrap();
    let kind = r
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (r.status().as_u16(), kind, r.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn findings_link_the_full_reports_and_their_numbers() {
    let s = TestServer::sqlite().await;
    let text = |path: &str| fetch_text(&s, path.to_string());
    // A game's page links its full report (a page of the app) and the report's numbers.
    let (c, _, html) = text("/api/findings/obsidio?format=html").await;
    assert_eq!(c, 200);
    assert!(
        html.contains("href=\"/findings/obsidio/report\"")
            && html.contains("href=\"/findings/obsidio/report.json\""),
        "{html}"
    );
    let (c, kind, report) = text("/api/findings/obsidio%2Freport?format=html").await;
    assert_eq!((c, kind.starts_with("text/html")), (200, true), "{report}");
    assert!(report.contains("<h1>"), "{report}");
    let (c, kind, numbers) = text("/findings/obsidio/report.json").await;
    assert_eq!((c, kind.as_str()), (200, "application/json"));
    assert!(serde_json::from_str::<serde_json::Value>(&numbers).is_ok());
    for bad in [
        "obsidio%2Fconfig",
        "%2Freport",
        "..%2Freport",
        "obsidio%2Freport%2Fx",
    ] {
        let (c, _, _) = text(&format!("/api/findings/{bad}")).await;
        assert_eq!(c, 404, "{bad}");
    }
    let (c, _, _) = text("/findings/obsidio/config.json").await;
    assert_eq!(c, 404);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_sqlite_file_never_both_append_a_version() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("shared.db").display());
    let a = std::sync::Arc::new(TestServer::on(&db).await);
    let b = std::sync::Arc::new(TestServer::on(&db).await);
    for round in 0..5 {
        let (id, t, st) = a
            .create(json!({ "game": "sight-reduction", "seed": round, "same_screen": true }))
            .await;
        let tok = t["first"].as_str().unwrap().to_string();
        // B loads the game before the race, so both hold it at version 0.
        assert_eq!(b.state(&id).await, st);
        let moves = legal(&st);
        let mut tasks = Vec::new();
        for i in 0..8 {
            let s = if i % 2 == 0 {
                std::sync::Arc::clone(&a)
            } else {
                std::sync::Arc::clone(&b)
            };
            let (id, tok, mv) = (id.clone(), tok.clone(), moves[i % moves.len()].clone());
            tasks.push(tokio::spawn(async move {
                s.play(&id, &mv, &tok, Some(0)).await
            }));
        }
        let mut winners = Vec::new();
        for t in tasks {
            let (c, v) = t.await.unwrap();
            assert!(c == 200 || c == 409, "{c}: {v}");
            if c == 200 {
                winners.push(v);
            }
        }
        assert_eq!(winners.len(), 1);
        // Whichever server a client asks next, the game has exactly the winning move.
        let (c, v) = b.play(&id, &legal(&winners[0])[0], &tok, None).await;
        assert_eq!(c, 200, "{v}");
        assert_eq!(v["moves"][0], winners[0]["moves"][0]);
        assert_eq!(version(&v), 2);
        let (_, listed) = a.get("/api/games?limit=100").await;
        let row = listed["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id.as_str())
            .unwrap()
            .clone();
        assert_eq!(
            (row["version"].as_i64(), row["moves"].as_i64()),
            (Some(2), Some(2))
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_link_works_once() {
    for s in TestServer::all().await {
        let (id, t, st) = s
            .create(json!({ "game": "obsidio", "seed": 3, "options": { "size": "7" } }))
            .await;
        let (a, link) = (t["first"].as_str().unwrap(), t["second"].as_str().unwrap());
        assert_eq!(st["seats"]["second"]["joined"], false);
        let join = format!("/api/games/{id}/join");
        let (c, v) = s.post(&join, &json!({ "token": link })).await;
        assert_eq!(c, 200, "{v}");
        assert_eq!(v["seat"], "second");
        assert_eq!(v["state"]["seats"]["second"]["joined"], true);
        let mine = v["token"].as_str().unwrap().to_string();
        assert_ne!(mine, link);
        // A second browser with the same link is told the seat is taken.
        let (c, v) = s.post(&join, &json!({ "token": link })).await;
        assert_eq!((c, v["code"].as_str()), (409, Some("invite_used")), "{v}");
        assert!(
            v["error"].as_str().unwrap().contains("already been used"),
            "{v}"
        );
        // The link's token no longer plays; the new one does.
        let (_, st1) = s.play(&id, &legal(&st)[0], a, None).await;
        let (c, v) = s.play(&id, &legal(&st1)[0], link, None).await;
        assert_eq!(c, 403, "{v}");
        let (c, v) = s.play(&id, &legal(&st1)[0], &mine, None).await;
        assert_eq!(c, 200, "{v}");
        // Joins need two people on two screens.
        let (id2, t2, _) = s
            .create(json!({ "game": "obsidio", "seed": 3, "same_screen": true }))
            .await;
        let (c, v) = s
            .post(
                &format!("/api/games/{id2}/join"),
                &json!({ "token": t2["first"] }),
            )
            .await;
        assert_eq!((c, v["code"].as_str()), (409, Some("not_allowed")), "{v}");
        // A wrong token holds no seat.
        let (c, _) = s.post(&join, &json!({ "token": "0".repeat(32) })).await;
        assert_eq!(c, 403);
        assert_eq!(s.state(&id).await["seats"]["second"]["joined"], true);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_hint_is_exact_and_in_words() {
    let s = TestServer::sqlite().await;
    // White a1 b1 a2, Black d1: the solitaire solver decides it at once.
    let (id, _, st) = s
        .create(json!({
            "game": "sight-reduction",
            "options": { "mode": "solitaire" },
            "position": "4/4/4/4/4/4/W3/WW1B w",
            "same_screen": true
        }))
        .await;
    assert_eq!(st["status"], "ongoing", "{st}");
    let (c, h) = s.get(&format!("/api/games/{id}/hint")).await;
    assert_eq!(c, 200, "{h}");
    assert_eq!(h["exact"], true, "{h}");
    assert!(
        legal(&st).contains(&h["move"].as_str().unwrap().to_string()),
        "{h}"
    );
    let text = h["text"].as_str().unwrap();
    assert!(
        text == "keeps the puzzle solvable"
            || text == "the puzzle can no longer be solved from here",
        "{h}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_play_moves_outside_any_game() {
    let s = TestServer::sqlite().await;
    // The same moves give the same position as in a stored game, with nothing stored.
    let (id, t, st0) = s
        .create(json!({ "game": "opprimo", "seed": 3, "same_screen": true }))
        .await;
    let tok = t["first"].as_str().unwrap();
    let mut cur = st0;
    let mut played = Vec::new();
    for i in 0..5 {
        let mv = legal(&cur)[i % legal(&cur).len()].clone();
        let (c, next) = s.play(&id, &mv, tok, None).await;
        assert_eq!(c, 200);
        played.push(mv);
        cur = next;
    }
    let (c, p) = s
        .post(
            "/api/positions",
            &json!({ "game": "opprimo", "seed": 3, "moves": played }),
        )
        .await;
    assert_eq!(c, 200, "{p}");
    for field in [
        "position",
        "board",
        "legal_moves",
        "interaction",
        "last_cells",
    ] {
        assert_eq!(p[field], cur[field], "{field}");
    }
    assert_eq!(p["to_move"]["colour"], cur["to_move"]["colour"]);
    assert_eq!(p["moves"].as_array().unwrap().len(), 5);
    assert_eq!(p["last_move"], cur["moves"][4]["move"]);
    assert_eq!(p["result"], Value::Null);
    let (_, listed) = s.get("/api/games").await;
    assert_eq!(listed["games"].as_array().unwrap().len(), 1);

    // From position text, in every game; a finished Sight Reduction game has its result.
    for kind in GameKind::all() {
        let (c, start) = s
            .post("/api/positions", &json!({ "game": kind.name() }))
            .await;
        assert_eq!(c, 200, "{kind}: {start}");
        let (c, again) = s
            .post(
                "/api/positions",
                &json!({ "game": kind.name(), "position": start["position"] }),
            )
            .await;
        assert_eq!(c, 200, "{kind}: {again}");
        assert_eq!(again["board"], start["board"], "{kind}");
        assert_eq!(again["legal_moves"], start["legal_moves"], "{kind}");
    }
    let mut moves: Vec<String> = Vec::new();
    let last = loop {
        let (c, p) = s
            .post(
                "/api/positions",
                &json!({ "game": "sight-reduction", "seed": 9, "moves": moves }),
            )
            .await;
        assert_eq!(c, 200, "{p}");
        if p["result"] != Value::Null {
            break p;
        }
        moves.push(p["legal_moves"][0].as_str().unwrap().to_string());
    };
    assert!(last["result"]["text"].as_str().unwrap().contains("wins"));
    assert_eq!(last["to_move"], Value::Null);
    assert_eq!(last["legal_moves"], json!([]));
    moves.push("a1".into());
    let (c, v) = s
        .post(
            "/api/positions",
            &json!({ "game": "sight-reduction", "seed": 9, "moves": moves }),
        )
        .await;
    assert_eq!(c, 400);
    assert!(v["error"].as_str().unwrap().contains("already over"), "{v}");

    // Bad input: the first bad move is named with its number.
    let (c, v) = s
        .post(
            "/api/positions",
            &json!({ "game": "opprimo", "seed": 3, "moves": [played[0], "zz99"] }),
        )
        .await;
    assert_eq!(c, 400);
    assert!(
        v["error"].as_str().unwrap().starts_with("move 2 'zz99'"),
        "{v}"
    );
    for bad in [
        json!({ "game": "chess" }),
        json!({ "game": "obsidio", "options": { "size": 4 } }),
        json!({ "game": "obsidio", "position": "not a position" }),
        json!({ "game": "obsidio", "moves": "e5" }),
        json!({ "game": "obsidio", "extra": 1 }),
        json!({ "game": "obsidio", "moves": vec!["e5"; 1001] }),
    ] {
        let (c, v) = s.post("/api/positions", &bad).await;
        assert_eq!(c, 400, "{bad}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    s.stop().await;
}

/// In the fair set-up the arranger chooses which colour removes first, so the option that
/// would choose it beforehand is refused with that reason, not ignored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bug_sight_reduction_fair_setup_refuses_first_black_naming_why() {
    let s = TestServer::sqlite().await;
    let body =
        json!({ "game": "sight-reduction", "options": { "setup": "fair", "first": "black" } });
    let (status, e) = s.post("/api/games", &body).await;
    assert_eq!(status, 400, "{e}");
    assert_eq!(e["code"], "bad_request");
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("the arranger chooses"),
        "{e}"
    );
    let (status, e) = s.post("/api/positions", &body).await;
    assert_eq!(status, 400, "{e}");
    let fine =
        json!({ "game": "sight-reduction", "options": { "setup": "fair", "first": "white" } });
    let (status, _) = s.post("/api/positions", &fine).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tutorials_are_served_and_play_through_positions() {
    let s = TestServer::sqlite().await;
    for kind in GameKind::all() {
        let (c, t) = s.get(&format!("/api/tutorials/{}", kind.name())).await;
        assert_eq!(c, 200, "{kind}: {t}");
        assert_eq!(t["game"], kind.name());
        assert_eq!(t["title"], kind.info().title);
        let steps = t["steps"].as_array().unwrap();
        assert!((5..=10).contains(&steps.len()), "{kind}");
        for step in steps {
            for field in ["title", "text", "hint", "done", "show", "position"] {
                assert!(
                    step[field].as_str().is_some_and(|x| !x.is_empty()),
                    "{kind}: {field}"
                );
            }
            // The start draws through /api/positions, and show-me is one of its legal moves
            // and of the goal; playing it there works.
            let body = json!({ "game": kind.name(), "options": step["options"], "position": step["position"] });
            let (c, p) = s.post("/api/positions", &body).await;
            assert_eq!(c, 200, "{kind}: {p}");
            let legal = legal(&p);
            let goal: Vec<&str> = step["goal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            assert!(!goal.is_empty());
            for g in &goal {
                assert!(legal.iter().any(|l| l == g), "{kind}: goal {g} not legal");
            }
            let show = step["show"].as_str().unwrap();
            assert!(goal.contains(&show), "{kind}: {show}");
            let mut after = body.clone();
            after["moves"] = json!([show]);
            let (c, p) = s.post("/api/positions", &after).await;
            assert_eq!(c, 200, "{kind}: {p}");
            assert_eq!(p["last_move"], show);
            // Some attempt fails: a legal move outside the goal, or a named refused click.
            let outside = legal.iter().any(|l| !goal.contains(&l.as_str()));
            let clicks = step["mistakes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["cell"].is_string());
            assert!(outside || clicks, "{kind}: nothing can go wrong");
            if outside {
                assert!(
                    step["wrong"].as_str().is_some_and(|w| !w.is_empty()),
                    "{kind}"
                );
            }
        }
    }
    for (path, code) in [
        ("/api/tutorials/chess", 404),
        ("/api/tutorials/", 404),
        ("/api/tutorials/sight-reduction/extra", 404),
    ] {
        let (c, v) = s.get(path).await;
        assert_eq!(c, code, "{path}: {v}");
        assert!(v["error"].is_string(), "{path}: {v}");
    }
    let (c, v) = s.post("/api/tutorials/obsidio", &json!({})).await;
    assert_eq!(c, 405, "{v}");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_rematches_on_two_servers_make_one_new_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("shared.db").display());
    let a = std::sync::Arc::new(TestServer::on(&db).await);
    let b = std::sync::Arc::new(TestServer::on(&db).await);
    for round in 0..4 {
        // On one screen a rematch is agreed at once, so every request tries to make the game.
        let (id, t, _) = a
            .create(json!({ "game": "sight-reduction", "seed": round, "same_screen": true }))
            .await;
        let tok = t["first"].as_str().unwrap().to_string();
        a.post(&format!("/api/games/{id}/resign"), &json!({ "token": tok }))
            .await;
        // Both servers hold the finished game before the race.
        assert_eq!(b.state(&id).await["status"], "finished");
        let mut tasks = Vec::new();
        for i in 0..6 {
            let s = std::sync::Arc::clone(if i % 2 == 0 { &a } else { &b });
            let (id, tok) = (id.clone(), tok.clone());
            tasks.push(tokio::spawn(async move {
                s.post(
                    &format!("/api/games/{id}/rematch"),
                    &json!({ "token": tok, "action": "offer" }),
                )
                .await
            }));
        }
        let mut agreed = Vec::new();
        for t in tasks {
            let (c, v) = t.await.unwrap();
            assert!(c == 200 || c == 409, "{c}: {v}");
            if c == 200 {
                agreed.push(v["rematch"].as_str().unwrap().to_string());
            }
        }
        agreed.dedup();
        assert_eq!(agreed.len(), 1, "{agreed:?}");
        // Exactly one game was made (each round adds the game and its rematch), and it is the
        // one the old game names.
        let (_, listed) = a.get("/api/games?limit=100").await;
        let games = listed["games"].as_array().unwrap();
        assert_eq!(games.len(), 2 * (round as usize + 1), "{listed}");
        assert_eq!(b.state(&id).await["rematch"], agreed[0].as_str());
        assert_eq!(b.state(&agreed[0]).await["status"], "ongoing");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_swaps_the_seats_and_keeps_the_players_tokens() {
    let s = TestServer::sqlite().await;
    let (id, t, _) = s
        .create(json!({ "game": "obsidio", "options": { "size": 7 } }))
        .await;
    let (a, b) = (
        t["first"].as_str().unwrap().to_string(),
        t["second"].as_str().unwrap().to_string(),
    );
    let rematch = |token: &str, action: &str| json!({ "token": token, "action": action });
    let path = format!("/api/games/{id}/rematch");
    // Not before the game ends.
    let (c, v) = s.post(&path, &rematch(&a, "offer")).await;
    assert_eq!(c, 409, "{v}");
    s.post(&format!("/api/games/{id}/resign"), &json!({ "token": b }))
        .await;
    // Nothing to accept yet; a wrong token holds no seat; an unknown action.
    let (c, _) = s.post(&path, &rematch(&b, "accept")).await;
    assert_eq!(c, 409);
    let (c, _) = s.post(&path, &rematch("nonsense", "offer")).await;
    assert_eq!(c, 403);
    let (c, _) = s.post(&path, &rematch(&a, "maybe")).await;
    assert_eq!(c, 400);
    // Offered, declined (the one who offered is told), offered again, accepted.
    let (c, st) = s.post(&path, &rematch(&a, "offer")).await;
    assert_eq!((c, &st["rematch_offer"]), (200, &json!("first")), "{st}");
    let (c, st) = s.post(&path, &rematch(&b, "decline")).await;
    assert_eq!(c, 200);
    assert_eq!(st["declined"]["offer"], "rematch");
    assert_eq!(st["rematch"], Value::Null);
    s.post(&path, &rematch(&a, "offer")).await;
    let (c, st) = s.post(&path, &rematch(&b, "accept")).await;
    assert_eq!(c, 200, "{st}");
    let new_id = st["rematch"].as_str().unwrap().to_string();
    let (c, v) = s.post(&path, &rematch(&a, "offer")).await;
    assert_eq!((c, v["code"].as_str()), (409, Some("rematch_started")));
    // The new game: same options, seats swapped, each player's token for the other seat.
    let fresh = s.state(&new_id).await;
    assert_eq!(fresh["options"]["size"], "7");
    assert_eq!(fresh["status"], "ongoing");
    let first_move = legal(&fresh)[0].clone();
    let (c, _) = s.play(&new_id, &first_move, &a, None).await;
    assert_eq!(c, 409, "A now holds the second seat, which is not to move");
    let (c, after) = s.play(&new_id, &first_move, &b, None).await;
    assert_eq!(c, 200, "{after}");
    assert_eq!(after["moves"][0]["seat"], "first");

    // Against the computer a rematch is agreed at once, and the computer opens.
    let (cid, ct, _) = s
        .create(json!({ "game": "sight-reduction", "seed": 3, "seats": { "second": "computer:random" } }))
        .await;
    let me = ct["first"].as_str().unwrap();
    s.post(&format!("/api/games/{cid}/resign"), &json!({ "token": me }))
        .await;
    let (c, st) = s
        .post(&format!("/api/games/{cid}/rematch"), &rematch(me, "offer"))
        .await;
    assert_eq!(c, 200, "{st}");
    let again = st["rematch"].as_str().unwrap();
    let st = s.wait_for(again, 30, |st| version(st) >= 1).await;
    assert_eq!(st["seats"]["first"]["kind"], "computer");
    assert_eq!(st["moves"][0]["seat"], "first");
    // A puzzle has no rematch.
    let (pid, pt, _) = s
        .create(json!({ "game": "sight-reduction", "seed": 3, "options": { "mode": "solitaire" } }))
        .await;
    let (c, _) = s
        .post(
            &format!("/api/games/{pid}/rematch"),
            &rematch(pt["first"].as_str().unwrap(), "offer"),
        )
        .await;
    assert_eq!(c, 409);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_are_made_judged_and_hinted() {
    let s = TestServer::sqlite().await;
    let (c, l) = s.get("/api/puzzles").await;
    assert_eq!(c, 200);
    assert_eq!(l["game"], "sight-reduction");
    let words: Vec<&str> = l["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["word"].as_str().unwrap())
        .collect();
    assert_eq!(words, ["clear", "win"]);
    assert_eq!(l["difficulties"], json!(["easy", "medium", "hard"]));

    // A solitaire puzzle: the same name twice gives the same puzzle; its solution is judged
    // good move by move and solves it, which /api/positions confirms.
    let (c, p) = s.get("/api/puzzles/clear-medium-2").await;
    assert_eq!(c, 200, "{p}");
    assert_eq!(p["kind"], "solitaire");
    assert_eq!(p["title"], "Clear the board");
    let (_, again) = s.get("/api/puzzles/clear-medium-2").await;
    assert_eq!(again, p);
    let solution: Vec<String> = p["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    for n in 1..=solution.len() {
        let (c, j) = s
            .post(
                "/api/puzzles/clear-medium-2/moves",
                &json!({ "moves": solution[..n] }),
            )
            .await;
        assert_eq!(c, 200, "{j}");
        assert_eq!(j["verdict"], "good", "{j}");
        assert_eq!(j["solved"], n == solution.len(), "{j}");
    }
    let (c, pos) = s
        .post("/api/positions", &json!({ "game": "sight-reduction", "options": p["options"], "position": p["position"], "moves": solution }))
        .await;
    assert_eq!(c, 200);
    assert_eq!(pos["result"]["tag"], "solved", "{pos}");
    let (c, h) = s
        .post("/api/puzzles/clear-medium-2/hint", &json!({ "moves": [] }))
        .await;
    assert_eq!(c, 200, "{h}");
    let first = h["move"].as_str().unwrap();
    let (_, j) = s
        .post(
            "/api/puzzles/clear-medium-2/moves",
            &json!({ "moves": [first] }),
        )
        .await;
    assert_eq!(j["verdict"], "good");

    // A win puzzle: a winning move gets the computer's reply; a losing one is a mistake.
    let (c, w) = s.get("/api/puzzles/win-easy-1").await;
    assert_eq!(c, 200, "{w}");
    let winning: Vec<&str> = w["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let (c, j) = s
        .post(
            "/api/puzzles/win-easy-1/moves",
            &json!({ "moves": [winning[0]] }),
        )
        .await;
    assert_eq!(c, 200, "{j}");
    assert_eq!(j["verdict"], "good");
    let reply = j["reply"].as_str().unwrap();
    let (c, h) = s
        .post(
            "/api/puzzles/win-easy-1/hint",
            &json!({ "moves": [winning[0], reply] }),
        )
        .await;
    assert_eq!(c, 200, "{h}");
    assert!(h["move"].is_string(), "{h}");
    let (_, start) = s
        .post(
            "/api/positions",
            &json!({ "game": "sight-reduction", "position": w["position"] }),
        )
        .await;
    let losing = legal(&start)
        .into_iter()
        .find(|m| !winning.contains(&m.as_str()))
        .unwrap();
    let (c, j) = s
        .post(
            "/api/puzzles/win-easy-1/moves",
            &json!({ "moves": [losing] }),
        )
        .await;
    assert_eq!(c, 200);
    assert_eq!(j["verdict"], "mistake", "{j}");
    assert!(j["text"].as_str().unwrap().contains("win"), "{j}");
    assert_eq!(j["reply"], Value::Null);

    // Bad input.
    for path in [
        "/api/puzzles/clear-easy-0",
        "/api/puzzles/chess-easy-1",
        "/api/puzzles/clear-tricky-1",
        "/api/puzzles/x",
    ] {
        let (c, v) = s.get(path).await;
        assert_eq!(c, 404, "{path}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains("KIND-GRADE-NUMBER"),
            "{v}"
        );
    }
    for (body, needle) in [
        (json!({ "moves": [] }), "no move to judge"),
        (json!({ "moves": ["z9"] }), "move 1"),
        (json!({ "moves": [winning[0], reply] }), "computer's"),
        (json!({ "moves": "a1" }), ""),
        (json!({ "moves": [], "extra": 1 }), ""),
        (json!({ "moves": vec!["a1"; 41] }), "more than 40 moves"),
        (json!({ "moves": ["a".repeat(300)] }), "longer than"),
    ] {
        let (c, v) = s.post("/api/puzzles/win-easy-1/moves", &body).await;
        assert_eq!(c, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{body}: {v}");
    }
    let (c, v) = s
        .post(
            "/api/puzzles/win-easy-1/hint",
            &json!({ "moves": [winning[0]] }),
        )
        .await;
    assert_eq!(c, 400, "{v}");
    let (c, v) = s.post_raw("/api/puzzles/clear-easy-1/moves", "{").await;
    assert_eq!(c, 400, "{v}");
    s.stop().await;
}
