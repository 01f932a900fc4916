//! Accounts: sign-up and log-in, sessions and their cookies, cross-site refusals, rate limits,
//! claiming seats and acting by account, "my games" with your turn first, player pages, and
//! the live channel of a player's games. Run on SQLite and, when configured, PostgreSQL.

mod common;

use common::{account_stream, legal, next_event, unique, Browser, TestServer};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_log_in_and_out() {
    for s in TestServer::all().await {
        let name = unique("ada");
        let mut a = Browser::new(&s);
        assert_eq!(a.me().await, Value::Null);
        let (c, v) = a.signup(&name).await;
        assert_eq!(c, 201, "{v}");
        assert_eq!(v["account"]["name"], name.as_str());
        assert!(v.get("password").is_none() && !v.to_string().contains("good password"));
        assert_eq!(a.me().await["name"], name.as_str());
        // The name is taken in any case.
        let mut other = Browser::new(&s);
        let (c, v) = other.signup(&name.to_uppercase()).await;
        assert_eq!((c, v["code"].as_str()), (409, Some("name_taken")), "{v}");
        for (bad, why) in [("ab", "characters"), ("two words", "letters")] {
            let (c, v) = other.signup(bad).await;
            assert_eq!(c, 400, "{v}");
            assert!(v["error"].as_str().unwrap().contains(why), "{v}");
        }
        let (c, v) = other
            .post(
                "/api/account/signup",
                &json!({ "name": unique("bob"), "password": "short" }),
            )
            .await;
        assert_eq!(c, 400, "{v}");
        // Wrong password and unknown name: the same answer, so names cannot be probed.
        let (c1, wrong) = other.login(&name, "not the password").await;
        let (c2, unknown) = other.login(&unique("nobody"), "a good password").await;
        assert_eq!((c1, c2), (401, 401));
        assert_eq!(wrong, unknown);
        assert_eq!(other.me().await, Value::Null);
        // Log in with any case of the name; log out.
        let (c, v) = other.login(&name.to_uppercase(), "a good password").await;
        assert_eq!(c, 200, "{v}");
        assert_eq!(other.me().await["name"], name.as_str());
        let (c, _) = other.post("/api/account/logout", &json!({})).await;
        assert_eq!(c, 200);
        assert_eq!(other.cookie, None);
        assert_eq!(other.me().await, Value::Null);
        // The first browser is still signed in.
        assert_eq!(a.me().await["name"], name.as_str());
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_id_from_before_the_log_in_is_worth_nothing_after_it() {
    for s in TestServer::all().await {
        let name = unique("eve");
        let mut a = Browser::new(&s);
        a.signup(&name).await;
        let first = a.cookie.clone().unwrap();
        // An attacker plants a session id of their choosing in the victim's browser.
        let planted = "0123456789abcdef0123456789abcdef".to_string();
        let mut victim = Browser::new(&s);
        victim.cookie = Some(planted.clone());
        assert_eq!(victim.me().await, Value::Null);
        let (c, _) = victim.login(&name, "a good password").await;
        assert_eq!(c, 200);
        let fresh = victim.cookie.clone().unwrap();
        assert_ne!(fresh, planted);
        let mut attacker = Browser::new(&s);
        attacker.cookie = Some(planted);
        assert_eq!(attacker.me().await, Value::Null);
        // A log-in made while holding a valid session replaces it with a new one.
        let (c, _) = a.login(&name, "a good password").await;
        assert_eq!(c, 200);
        assert_ne!(a.cookie.as_deref(), Some(first.as_str()));
        let mut old = Browser::new(&s);
        old.cookie = Some(first);
        assert_eq!(old.me().await, Value::Null);
        assert_eq!(victim.me().await["name"], name.as_str());
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_out_everywhere_ends_every_session() {
    for s in TestServer::all().await {
        let name = unique("max");
        let mut phone = Browser::new(&s);
        phone.signup(&name).await;
        let mut laptop = Browser::new(&s);
        laptop.login(&name, "a good password").await;
        assert_eq!(laptop.me().await["name"], name.as_str());
        let (c, v) = phone
            .post("/api/account/logout-everywhere", &json!({}))
            .await;
        assert_eq!(c, 200, "{v}");
        assert_eq!(v["sessions_ended"], 2);
        assert_eq!(laptop.me().await, Value::Null);
        assert_eq!(phone.me().await, Value::Null);
        let (c, _) = laptop
            .post("/api/account/logout-everywhere", &json!({}))
            .await;
        assert_eq!(c, 401);
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cross_site_change_is_refused() {
    for s in TestServer::all().await {
        let mut a = Browser::new(&s);
        a.signup(&unique("cat")).await;
        let (id, tokens, _) = s.create(json!({ "game": "sight-reduction" })).await;
        let tok = tokens["first"].as_str().unwrap();
        // A page on another site posts with the visitor's cookie: refused, nothing changes.
        let mut evil = Browser::new(&s).with("origin", "https://evil.example");
        evil.cookie.clone_from(&a.cookie);
        let (c, v) = evil
            .post(&format!("/api/games/{id}/claim"), &json!({ "token": tok }))
            .await;
        assert_eq!(c, 403, "{v}");
        assert!(v["error"].as_str().unwrap().contains("cross-site"), "{v}");
        let mut sneaky = Browser::new(&s).with("sec-fetch-site", "cross-site");
        sneaky.cookie.clone_from(&a.cookie);
        let (c, _) = sneaky
            .post("/api/account/logout-everywhere", &json!({}))
            .await;
        assert_eq!(c, 403);
        assert!(a.me().await.is_object());
        assert_eq!(s.state(&id).await["seats"]["first"]["account"], Value::Null);
        let (c, _) = Browser::new(&s)
            .with("origin", "https://evil.example")
            .signup(&unique("dog"))
            .await;
        assert_eq!(c, 403);
        // From the site itself it works.
        let origin = s.base.clone();
        let mut home = Browser::new(&s).with("origin", &origin);
        home.cookie.clone_from(&a.cookie);
        let (c, v) = home
            .post(&format!("/api/games/{id}/claim"), &json!({ "token": tok }))
            .await;
        assert_eq!(c, 200, "{v}");
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_ins_are_limited_per_address_and_per_account() {
    let dir = tempfile::tempdir().unwrap();
    let s = TestServer::with(boardlab_server::ServeArgs {
        addr: "127.0.0.1:0".into(),
        database: format!("sqlite://{}", dir.path().join("t.db").display()),
        logins_per_minute: 3,
        trust_proxy: true,
        ..boardlab_server::ServeArgs::default()
    })
    .await;
    let name = unique("liz");
    Browser::new(&s)
        .with("x-forwarded-for", "10.0.0.1")
        .signup(&name)
        .await;
    // Per address: the same address's fourth try in a minute is refused.
    let mut from = Browser::new(&s).with("x-forwarded-for", "10.0.0.1");
    for _ in 0..2 {
        assert_eq!(from.login(&name, "wrong password").await.0, 401);
    }
    let (status, body, _) = from
        .send_raw(
            "POST",
            "/api/account/login",
            Some(&json!({ "name": name, "password": "a good password" })),
        )
        .await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["code"], "rate_limited");
    assert!(body["error"].as_str().unwrap().contains("this address"));
    let r = s
        .client
        .post(s.url("/api/account/login"))
        .header("content-type", "application/json")
        .header("x-forwarded-for", "10.0.0.1")
        .body(json!({ "name": name, "password": "x" }).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 429);
    let wait: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    // Per account: guesses spread over many addresses still stop after three (two came
    // from 10.0.0.1 above; the refused ones never reached the account).
    let mut codes = Vec::new();
    for i in 0..3 {
        let mut b = Browser::new(&s).with("x-forwarded-for", &format!("10.0.1.{i}"));
        codes.push(b.login(&name, "wrong password").await.0);
    }
    assert_eq!(codes, [401, 429, 429]);
    let mut b = Browser::new(&s).with("x-forwarded-for", "10.0.2.1");
    let (c, v) = b.login(&name, "a good password").await;
    assert_eq!(c, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("this account"), "{v}");
    // Another account from a fresh address is not held up.
    let other = unique("kim");
    let mut k = Browser::new(&s).with("x-forwarded-for", "10.0.3.1");
    assert_eq!(k.signup(&other).await.0, 201);
    s.stop().await;
}

/// Two players with accounts in one game between two screens: Alice created it and claimed
/// the first seat, Bob opened the invite and claimed the second.
async fn claimed_game<'a>(s: &'a TestServer) -> (String, Browser<'a>, Browser<'a>, Value) {
    let mut alice = Browser::new(s);
    alice.signup(&unique("alice")).await;
    let mut bob = Browser::new(s);
    bob.signup(&unique("bob")).await;
    let (id, tokens, _) = s
        .create(json!({ "game": "sight-reduction", "seed": 3 }))
        .await;
    let (c, v) = alice
        .post(
            &format!("/api/games/{id}/claim"),
            &json!({ "token": tokens["first"] }),
        )
        .await;
    assert_eq!(c, 200, "{v}");
    let (c, joined) = s
        .post(
            &format!("/api/games/{id}/join"),
            &json!({ "token": tokens["second"] }),
        )
        .await;
    assert_eq!(c, 200, "{joined}");
    let (c, v) = bob
        .post(
            &format!("/api/games/{id}/claim"),
            &json!({ "token": joined["token"] }),
        )
        .await;
    assert_eq!(c, 200, "{v}");
    (id, alice, bob, v)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claimed_seats_follow_the_account_and_no_one_else() {
    for s in TestServer::all().await {
        let (id, mut alice, mut bob, state) = claimed_game(&s).await;
        let alice_name = alice.me().await["name"].as_str().unwrap().to_string();
        let bob_name = bob.me().await["name"].as_str().unwrap().to_string();
        assert_eq!(state["seats"]["first"]["account"], alice_name.as_str());
        assert_eq!(state["seats"]["second"]["account"], bob_name.as_str());
        // Alice, in another browser with no token, moves by her account alone.
        let mut elsewhere = Browser::new(&s);
        elsewhere.login(&alice_name, "a good password").await;
        let mv = legal(&state)[0].clone();
        let (c, v) = elsewhere
            .post(&format!("/api/games/{id}/moves"), &json!({ "move": mv }))
            .await;
        assert_eq!(c, 200, "{v}");
        // Bob cannot move for Alice's seat, nor can a third account do anything.
        let mv = legal(&v)[0].clone();
        let (c, _) = alice
            .post(&format!("/api/games/{id}/moves"), &json!({ "move": mv }))
            .await;
        assert_eq!(c, 409, "not Alice's turn");
        let mut carol = Browser::new(&s);
        carol.signup(&unique("carol")).await;
        let version = v["version"].clone();
        for (path, body) in [
            ("moves", json!({ "move": mv })),
            ("resign", json!({})),
            ("draw", json!({ "action": "offer" })),
        ] {
            let (c, e) = carol.post(&format!("/api/games/{id}/{path}"), &body).await;
            assert_eq!(c, 403, "{path}: {e}");
            assert!(e["error"].as_str().unwrap().contains("account"), "{e}");
        }
        // Carol cannot take a claimed seat, even with a token of it.
        let (c, e) = carol
            .post(
                &format!("/api/games/{id}/claim"),
                &json!({ "token": "00000000000000000000000000000000" }),
            )
            .await;
        assert_eq!(c, 403, "{e}");
        assert_eq!(s.state(&id).await["version"], version);
        // Bob moves with his cookie.
        let (c, v) = bob
            .post(&format!("/api/games/{id}/moves"), &json!({ "move": mv }))
            .await;
        assert_eq!(c, 200, "{v}");
        // Claiming without signing in is refused; claiming again changes nothing.
        let (c, _) = Browser::new(&s)
            .post(&format!("/api/games/{id}/claim"), &json!({ "token": "x" }))
            .await;
        assert_eq!(c, 401);
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_games_put_your_turn_first_and_player_pages_count_results() {
    for s in TestServer::all().await {
        let (id, mut alice, mut bob, state) = claimed_game(&s).await;
        let (id2, _, _) = {
            // A second game: Alice against the computer, claimed, and it is her move.
            let (id2, t, st) = s
                .create(
                    json!({ "game": "sight-reduction", "seats": { "second": "computer:random" } }),
                )
                .await;
            let (c, v) = alice
                .post(
                    &format!("/api/games/{id2}/claim"),
                    &json!({ "token": t["first"] }),
                )
                .await;
            assert_eq!(c, 200, "{v}");
            (id2, t, st)
        };
        let (c, mine) = alice.get("/api/account/games").await;
        assert_eq!(c, 200, "{mine}");
        let ids: Vec<&str> = mine["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids.len(), 2);
        assert!(ids.contains(&id.as_str()) && ids.contains(&id2.as_str()));
        assert_eq!(mine["your_turn"], 2, "{mine}");
        // After Alice moves in the first game, the other one comes first.
        let mv = legal(&state)[0].clone();
        let (c, _) = alice
            .post(&format!("/api/games/{id}/moves"), &json!({ "move": mv }))
            .await;
        assert_eq!(c, 200);
        let (_, mine) = alice.get("/api/account/games").await;
        assert_eq!(mine["games"][0]["id"], id2.as_str());
        assert_eq!(mine["games"][0]["your_turn"], true);
        assert_eq!(mine["games"][1]["your_turn"], false);
        assert_eq!(mine["your_turn"], 1);
        let (_, bobs) = bob.get("/api/account/games").await;
        assert_eq!(bobs["games"][0]["id"], id.as_str());
        assert_eq!(bobs["games"][0]["your_turn"], true);
        assert_eq!(bobs["games"][0]["seat"], "second");
        // Bob resigns: Alice won, and the player pages say so.
        let (c, _) = bob
            .post(&format!("/api/games/{id}/resign"), &json!({}))
            .await;
        assert_eq!(c, 200);
        let alice_name = alice.me().await["name"].as_str().unwrap().to_string();
        let bob_name = bob.me().await["name"].as_str().unwrap().to_string();
        let (c, page) = s.get(&format!("/api/players/{alice_name}")).await;
        assert_eq!(c, 200, "{page}");
        assert_eq!(page["record"], json!({ "won": 1, "lost": 0, "drawn": 0 }));
        assert_eq!(
            page["head_to_head"],
            json!([{ "opponent": bob_name, "won": 1, "lost": 0, "drawn": 0 }])
        );
        let (_, won) = s
            .get(&format!("/api/players/{alice_name}?result=won"))
            .await;
        assert_eq!(won["games"].as_array().unwrap().len(), 1);
        assert_eq!(won["games"][0]["opponent"], bob_name.as_str());
        let (_, lost) = s
            .get(&format!(
                "/api/players/{}?result=lost",
                bob_name.to_uppercase()
            ))
            .await;
        assert_eq!(lost["games"][0]["outcome"], "lost");
        let (_, none) = s
            .get(&format!("/api/players/{alice_name}?game=obsidio"))
            .await;
        assert_eq!(none["games"], json!([]));
        for bad in ["?result=maybe", "?game=chess", "?limit=0", "?colour=red"] {
            let (c, _) = s.get(&format!("/api/players/{alice_name}{bad}")).await;
            assert_eq!(c, 400, "{bad}");
        }
        assert_eq!(s.get("/api/players/nobody-at-all").await.0, 404);
        assert_eq!(Browser::new(&s).get("/api/account/games").await.0, 401);
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_hears_of_every_change_in_their_games() {
    for s in TestServer::all().await {
        let (id, mut alice, bob, state) = claimed_game(&s).await;
        let (mut stream, mut buf) = account_stream(&s, bob.cookie.as_ref().unwrap()).await;
        let mv = legal(&state)[0].clone();
        let (c, _) = alice
            .post(&format!("/api/games/{id}/moves"), &json!({ "move": mv }))
            .await;
        assert_eq!(c, 200);
        let (event, data) = next_event(&mut stream, &mut buf).await;
        assert_eq!(event, "games");
        assert_eq!(
            serde_json::from_str::<Value>(&data).unwrap()["game"],
            id.as_str()
        );
        assert_eq!(Browser::new(&s).get("/api/account/live").await.0, 401);
        s.stop().await;
    }
}
