//! Outside engines (`computer:ugi:COMMAND`) as computer seats: only the commands the operator
//! allowed, and an engine that fails makes its seat resign without harming the server.

mod common;

use boardlab_server::ServeArgs;
use common::TestServer;
use serde_json::json;

async fn server_allowing(engines: Vec<String>) -> (TestServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let args = ServeArgs {
        addr: "127.0.0.1:0".into(),
        database: format!("sqlite://{}", dir.path().join("engines.db").display()),
        ugi_engines: engines,
        ..ServeArgs::default()
    };
    (TestServer::with(args).await, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_engines_the_operator_allowed_are_run() {
    let (s, _dir) = server_allowing(Vec::new()).await;
    let (c, v) = s
        .post(
            "/api/games",
            &json!({ "game": "opprimo", "seats": { "second": "computer:ugi:/bin/sh -c 'echo hi'" } }),
        )
        .await;
    assert_eq!(c, 400, "{v}");
    let msg = v["error"].as_str().unwrap();
    assert!(
        msg.contains("seats.second") && msg.contains("--ugi-engine"),
        "{msg}"
    );

    let (s, _dir) = server_allowing(vec!["./engine --fast".into()]).await;
    for spec in [
        "ugi:./engine",
        "ugi:./engine --fast --other",
        "ugi:./ENGINE --fast",
    ] {
        let (c, v) = s
            .post(
                "/api/games",
                &json!({ "game": "opprimo", "seats": { "second": format!("computer:{spec}") } }),
            )
            .await;
        assert_eq!(c, 400, "{spec}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains("`./engine --fast`"),
            "{v}"
        );
    }
    // The time per move is held to the server's limit like any bot's.
    let (c, v) = s
        .post(
            "/api/games",
            &json!({ "game": "opprimo", "seats": { "second": "computer:ugi:time=3600s ./engine --fast" } }),
        )
        .await;
    assert_eq!(c, 400, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("--computer-max-time"),
        "{v}"
    );
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_engine_resigns_and_the_server_goes_on() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("nonsense");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    ugi) echo ugiok ;;\n    \
         isready) echo readyok ;;\n    go*) echo 'bestmove zzz' ;;\n    quit) exit 0 ;;\n  \
         esac\ndone\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let command = script.to_str().unwrap().to_string();
    let (s, _db) = server_allowing(vec![command.clone()]).await;
    let seat = format!("computer:ugi:time=50ms {command}");
    let (id, _, st) = s
        .create(json!({ "game": "opprimo", "seats": { "first": seat, "second": "human" } }))
        .await;
    assert_eq!(st["seats"]["first"]["player"], seat);
    let st = s.wait_for(&id, 20, |st| st["status"] == "finished").await;
    assert_eq!(st["result"]["termination"], "resignation", "{st}");
    assert_eq!(st["result"]["winner"], "second", "{st}");
    // The server still serves.
    let (c, _) = s.get("/api/games").await;
    assert_eq!(c, 200);
    let (id, _, _) = s
        .create(json!({ "game": "opprimo", "seats": { "second": "computer:random" } }))
        .await;
    assert_eq!(s.state(&id).await["status"], "ongoing");
}
