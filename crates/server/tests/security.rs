//! Hostile and malformed input: every answer is a 4xx with a JSON message, never a 5xx; tokens
//! never reach anyone but their creator; bodies are limited.

mod common;

use common::{legal, TestServer};
use futures_util::StreamExt;
use serde_json::{json, Value};

/// Sends `body` and checks the answer is the expected 4xx with a message.
async fn expect_4xx(s: &TestServer, method: &str, path: &str, body: Option<&str>, status: u16) {
    let req = match method {
        "GET" => s.client.get(s.url(path)),
        "POST" => s.client.post(s.url(path)),
        "PUT" => s.client.put(s.url(path)),
        "DELETE" => s.client.delete(s.url(path)),
        other => panic!("{other}"),
    };
    let req = match body {
        Some(b) => req
            .header("content-type", "application/json")
            .body(b.to_string()),
        None => req,
    };
    let r = req.send().await.unwrap();
    let got = r.status().as_u16();
    let text = r.text().await.unwrap();
    let shown: String = body.unwrap_or("").chars().take(80).collect();
    assert_eq!(got, status, "{method} {path} {shown}: {text}");
    let v: Value = serde_json::from_str(&text)
        .unwrap_or_else(|_| panic!("{method} {path} {shown}: not JSON: {text}"));
    assert!(
        v["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{method} {path}: {text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_requests_get_clear_4xx_answers() {
    let s = TestServer::sqlite().await;
    let (id, tokens, _) = s.create(json!({ "game": "sight-reduction" })).await;
    let tok = tokens["first"].as_str().unwrap();
    let huge = format!("{{\"game\":\"{}\"}}", "x".repeat(200_000));
    let create_400 = [
        "",
        "{",
        "[]",
        "null",
        "42",
        "\"game\"",
        "{\"game\":1}",
        "{\"game\":null}",
        "{}",
        "{\"game\":\"chess\"}",
        "{\"game\":\"sight-reduction\",\"colour\":\"red\"}",
        "{\"game\":\"sight-reduction\",\"options\":{\"removal\":\"triple\"}}",
        "{\"game\":\"sight-reduction\",\"options\":{\"speed\":\"fast\"}}",
        "{\"game\":\"sight-reduction\",\"options\":{\"removal\":[\"pair\"]}}",
        "{\"game\":\"sight-reduction\",\"options\":{\"removal\":null}}",
        "{\"game\":\"sight-reduction\",\"options\":[]}",
        "{\"game\":\"sight-reduction\",\"seed\":-1}",
        "{\"game\":\"sight-reduction\",\"seed\":1.5}",
        "{\"game\":\"sight-reduction\",\"seed\":\"7\"}",
        "{\"game\":\"sight-reduction\",\"seed\":184467440737095516150}",
        "{\"game\":\"sight-reduction\",\"seats\":{\"first\":\"robot\"}}",
        "{\"game\":\"sight-reduction\",\"seats\":{\"third\":\"human\"}}",
        "{\"game\":\"sight-reduction\",\"seats\":{\"first\":\"computer:level:99\"}}",
        "{\"game\":\"sight-reduction\",\"seats\":{\"first\":\"computer:mcts:time=forever\"}}",
        "{\"game\":\"sight-reduction\",\"seats\":\"human\"}",
        "{\"game\":\"sight-reduction\",\"same_screen\":true,\"seats\":{\"second\":\"computer:random\"}}",
        "{\"game\":\"sight-reduction\",\"same_screen\":\"yes\"}",
        "{\"game\":\"sight-reduction\",\"position\":\"not a position\"}",
        "{\"game\":\"sight-reduction\",\"position\":\"WBWB/BWBW w\"}",
        "{\"game\":\"sight-reduction\",\"position\":7}",
        "{\"game\":\"sight-reduction\",\"options\":{\"mode\":\"solitaire\",\"setup\":\"fair\"}}",
        "{\"game\":\"sight-reduction\"} trailing",
        "{\"game\":\"sight-reduction\",\"game\":\"obsidio\"}",
        "\u{0}\u{1}\u{2}",
    ];
    for body in create_400 {
        expect_4xx(&s, "POST", "/api/games", Some(body), 400).await;
    }
    expect_4xx(&s, "POST", "/api/games", Some(&huge), 413).await;
    let r = s
        .client
        .post(s.url("/api/games"))
        .header("content-type", "application/xml")
        .body("<game/>")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 415);

    let moves = format!("/api/games/{id}/moves");
    for body in [
        "{}".to_string(),
        "{\"move\":null}".to_string(),
        format!("{{\"move\":[\"a1\"],\"token\":\"{tok}\"}}"),
        "{\"move\":\"a1\",\"token\":{}}".to_string(),
        format!("{{\"move\":\"a1\",\"token\":\"{tok}\",\"version\":\"0\"}}"),
        format!("{{\"move\":\"a1\",\"token\":\"{tok}\",\"version\":1e400}}"),
        format!("{{\"move\":\"\\ud800\",\"token\":\"{tok}\"}}"),
        format!("{{\"move\":\"a1\",\"token\":\"{tok}\",\"promote\":true}}"),
        format!("{{\"move\":\"e9\",\"token\":\"{tok}\"}}"),
        format!("{{\"move\":\"a1 a1 a1\",\"token\":\"{tok}\"}}"),
        format!("{{\"move\":\"\u{1F600}\",\"token\":\"{tok}\"}}"),
    ] {
        expect_4xx(&s, "POST", &moves, Some(&body), 400).await;
    }
    for body in [
        "{\"token\":1}",
        "{\"action\":\"offer\",\"token\":\"x\",\"mood\":1}",
        "{\"action\":7}",
    ] {
        expect_4xx(
            &s,
            "POST",
            &format!("/api/games/{id}/draw"),
            Some(body),
            400,
        )
        .await;
        expect_4xx(
            &s,
            "POST",
            &format!("/api/games/{id}/undo"),
            Some(body),
            400,
        )
        .await;
    }
    expect_4xx(
        &s,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some("{\"flag\":1}"),
        400,
    )
    .await;
    expect_4xx(
        &s,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some("{}"),
        403,
    )
    .await;
    expect_4xx(
        &s,
        "POST",
        &format!("/api/games/{id}/draw"),
        Some("{\"action\":\"offer\"}"),
        403,
    )
    .await;
    let long_id = "a".repeat(300);
    for path in [
        "/api/games/0000000000000000".to_string(),
        "/api/games/NOT-AN-ID".to_string(),
        format!("/api/games/{long_id}"),
        "/api/games/%00%ff".to_string(),
        "/api/games/..%2F..%2Fetc".to_string(),
        "/api/games/0000000000000000/record".to_string(),
        "/api/games/0000000000000000/live".to_string(),
        "/api/games/0000000000000000/events".to_string(),
        "/api/nothing".to_string(),
        "/api".to_string(),
    ] {
        expect_4xx(&s, "GET", &path, None, 404).await;
    }
    expect_4xx(
        &s,
        "POST",
        "/api/games/0000000000000000/moves",
        Some("{\"move\":\"a1\",\"token\":\"x\"}"),
        404,
    )
    .await;
    expect_4xx(&s, "DELETE", &format!("/api/games/{id}"), None, 405).await;
    expect_4xx(&s, "PUT", "/api/games", Some("{}"), 405).await;
    expect_4xx(&s, "GET", &format!("/api/games/{id}/moves"), None, 405).await;
    expect_4xx(&s, "GET", &format!("/api/games/{id}/live"), None, 400).await;
    expect_4xx(
        &s,
        "GET",
        &format!("/api/games/{id}/record?format=%ff"),
        None,
        400,
    )
    .await;
    expect_4xx(&s, "GET", &format!("/api/games/{id}/record?x=1"), None, 400).await;
    // The game is untouched by all that.
    assert_eq!(s.state(&id).await["version"], 0);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_never_shown_to_the_other_seat_or_spectators() {
    let s = TestServer::sqlite().await;
    let (id, tokens, state) = s
        .create(json!({ "game": "sight-reduction", "seed": 4, "seats": { "second": "computer:random" } }))
        .await;
    assert!(
        tokens.get("second").is_none(),
        "a computer seat has no token"
    );
    let tok = tokens["first"].as_str().unwrap().to_string();
    assert_eq!(tok.len(), 32);
    assert!(!state.to_string().contains(&tok));
    // A spectator's live stream.
    let ws_url = format!("{}/api/games/{id}/live", s.base.replace("http://", "ws://"));
    let (mut ws, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
    let (_, after) = s.play(&id, &legal(&state)[0], &tok, None).await;
    assert!(!after.to_string().contains(&tok));
    s.wait_for(&id, 20, |st| st["version"] == 2).await;
    let mut seen = 0;
    while seen < 3 {
        let msg = ws.next().await.unwrap().unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            assert!(!t.contains(&tok));
            seen += 1;
        }
    }
    for path in [
        format!("/api/games/{id}"),
        format!("/api/games/{id}/record"),
        format!("/api/games/{id}/record?format=pgn"),
        "/api/games?limit=100".to_string(),
    ] {
        let text = s
            .client
            .get(s.url(&path))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(!text.contains(&tok), "{path} shows the token");
    }
    // Two games never share tokens, and a token of one game is no use in another.
    let (id2, tokens2, st2) = s
        .create(json!({ "game": "sight-reduction", "seed": 4 }))
        .await;
    assert_ne!(tokens2["first"], tokens2["second"]);
    assert_ne!(tokens2["first"].as_str().unwrap(), tok);
    let (c, _) = s.play(&id2, &legal(&st2)[0], &tok, None).await;
    assert_eq!(c, 403);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn documents_and_static_files_are_served() {
    let s = TestServer::sqlite().await;
    let (c, doc) = s.get("/api/openapi.json").await;
    assert_eq!(c, 200);
    assert_eq!(doc["openapi"], "3.1.0");
    let routes = boardlab_server::http::routes();
    for (method, path) in &routes {
        assert!(
            doc["paths"][path][method].is_object(),
            "openapi.json lacks {method} {path}"
        );
    }
    // And it documents nothing the server does not route.
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for method in ops.as_object().unwrap().keys() {
            assert!(
                routes.iter().any(|(m, p)| m == method && p == path),
                "openapi.json documents {method} {path}, which is not routed"
            );
        }
    }
    let md = s
        .client
        .get(s.url("/api/docs"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for (method, path) in &routes {
        let line = format!("{} {path}", method.to_uppercase());
        assert!(md.contains(&line), "docs/api.md lacks {line}");
    }
    let r = s.client.get(s.url("/")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert!(r
        .headers()
        .get("content-type")
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let body = r.text().await.unwrap();
    assert!(
        body.contains("<html") || body.contains("<!doctype"),
        "{body}"
    );
    let r = s
        .client
        .get(s.url("/no-such-file.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 404);
    // A file comes with a validator; asked again with it, the answer is 304 and no body, and
    // with another one the file again.
    let engine = "/engine/boardlab_wasm_bg.wasm";
    let r = s.client.get(s.url(engine)).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.headers()["content-type"], "application/wasm");
    let tag = r.headers()["etag"].to_str().unwrap().to_string();
    assert!(tag.starts_with('"') && tag.ends_with('"'), "{tag}");
    let again = |t: &str| {
        s.client
            .get(s.url(engine))
            .header("If-None-Match", t.to_string())
            .send()
    };
    let r = again(&tag).await.unwrap();
    assert_eq!(r.status().as_u16(), 304);
    assert_eq!(r.headers()["etag"].to_str().unwrap(), tag);
    assert!(r.bytes().await.unwrap().is_empty());
    let r = again("\"0123\"").await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert!(r.bytes().await.unwrap().len() > 100_000);
    // A browser that takes gzip gets the engine gzipped, with its own validator; the bytes
    // inflate to the file.
    let plain = s.client.get(s.url(engine)).send().await.unwrap();
    let plain = plain.bytes().await.unwrap();
    let zipped = s
        .client
        .get(s.url(engine))
        .header("Accept-Encoding", "br;q=1, gzip;q=0.8")
        .send()
        .await
        .unwrap();
    assert_eq!(zipped.headers()["content-encoding"], "gzip");
    assert_eq!(zipped.headers()["vary"], "accept-encoding");
    let ztag = zipped.headers()["etag"].to_str().unwrap().to_string();
    assert_ne!(ztag, tag);
    let body = zipped.bytes().await.unwrap();
    assert!(
        body.len() < 1_500_000 && body.len() < plain.len() / 2,
        "the engine travels as {} bytes",
        body.len()
    );
    let mut inflated = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&body[..]), &mut inflated)
        .unwrap();
    assert!(
        inflated == plain,
        "the gzipped engine inflates to the engine"
    );
    let r = s
        .client
        .get(s.url(engine))
        .header("Accept-Encoding", "gzip")
        .header("If-None-Match", ztag.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 304);
    let r = s
        .client
        .get(s.url(engine))
        .header("Accept-Encoding", "gzip;q=0, identity")
        .send()
        .await
        .unwrap();
    assert!(r.headers().get("content-encoding").is_none());
    // Everything the offline list names answers.
    let list: serde_json::Value = s
        .client
        .get(s.url("/app-files.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let names = list["files"]
        .as_array()
        .unwrap()
        .iter()
        .chain(list["data"].as_array().unwrap());
    for a in names {
        let a = a.as_str().unwrap();
        let r = s.client.get(s.url(a)).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{a}");
    }
    let r = s.client.get(s.url("/api/health")).send().await.unwrap();
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    assert_eq!(r.headers()["cache-control"], "no-store");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dev_mode_serves_the_web_folder_from_disk_and_nothing_outside_it() {
    let dir = tempfile::tempdir().unwrap();
    let args = boardlab_server::ServeArgs {
        addr: "127.0.0.1:0".into(),
        database: format!("sqlite://{}", dir.path().join("dev.db").display()),
        dev: true,
        ..boardlab_server::ServeArgs::default()
    };
    let server = boardlab_server::Server::bind(&args).await.unwrap();
    let base = format!("http://{}", server.local_addr().unwrap());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async {
        let _ = rx.await;
    }));
    let http = common::client();
    let web = boardlab_server::http::web::source_dir();
    let index = std::fs::read_to_string(web.join("index.html")).ok();
    let r = http.get(format!("{base}/")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let body = r.text().await.unwrap();
    if let Some(index) = index {
        assert_eq!(body, index);
        let r = http.get(format!("{base}/games/abc")).send().await.unwrap();
        assert_eq!(r.text().await.unwrap(), index, "UI routes get index.html");
    }
    for path in [
        "/tests/run.mjs",
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/.git/config",
    ] {
        let r = http.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 404, "{path}");
    }
    let _ = tx.send(());
    task.await.unwrap().unwrap();
}
