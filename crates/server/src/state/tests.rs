use super::*;

fn meta() -> Meta {
    Meta {
        id: "0".into(),
        kind: GameKind::named("sight-reduction").unwrap(),
        options: GameKind::named("sight-reduction")
            .unwrap()
            .info()
            .default_options(),
        seed: 4,
        position: None,
        players: [Player::Human, Player::Human],
        tokens: [None, None],
        same_screen: false,
        created_ms: 0,
        accounts: [None, None],
        rated: false,
        clock: None,
    }
}

/// Plays the game to its end, each mover offering a draw first (declining the other's
/// offer before that); returns the log.
fn log_with_an_offer_pending_at_the_end(meta: &Meta) -> (Live, Vec<Event>) {
    let mut live = Live::new(meta).unwrap();
    let mut events = Vec::new();
    let mut push = |live: &mut Live, seat, action, data: &str| {
        let data = live.apply(meta, seat, action, data, 0).unwrap();
        events.push(Event {
            seq: live.version,
            seat,
            action,
            data,
            at_ms: 0,
        });
    };
    while !live.finished() {
        let seat = live.game.to_move();
        if live.draw_offer == Some(seat.other()) {
            push(&mut live, seat, Action::DrawDecline, "");
        }
        push(&mut live, seat, Action::DrawOffer, "");
        let mv = live.game.legal_moves()[0].clone();
        push(&mut live, seat, Action::Move, &mv);
    }
    (live, events)
}

#[test]
fn regression_21_an_offer_ends_with_the_game_and_cannot_be_answered_after() {
    let meta = meta();
    let (mut live, _) = log_with_an_offer_pending_at_the_end(&meta);
    assert_eq!(live.draw_offer, None);
    let last = live.moves.last().unwrap().seat;
    for (seat, action) in [
        (last.other(), Action::DrawDecline),
        (last.other(), Action::DrawAccept),
        (last, Action::DrawDecline),
    ] {
        let e = live.apply(&meta, seat, action, "", 0).unwrap_err();
        assert!(
            matches!(
                e,
                ActionError::Conflict {
                    code: "game_over",
                    ..
                }
            ),
            "{e}"
        );
    }
}

#[test]
fn a_declined_offer_is_told_until_the_next_action() {
    let meta = meta();
    let mut live = Live::new(&meta).unwrap();
    let first = Seat::First;
    live.apply(&meta, first, Action::DrawOffer, "", 0).unwrap();
    // Withdrawing one's own offer is no refusal.
    live.apply(&meta, first, Action::DrawDecline, "", 0)
        .unwrap();
    assert_eq!(live.declined, None);
    live.apply(&meta, first, Action::DrawOffer, "", 0).unwrap();
    live.apply(&meta, first.other(), Action::DrawDecline, "", 0)
        .unwrap();
    assert_eq!(live.declined, Some(("draw", first.other())));
    // A refused action changes nothing; the next applied one clears it.
    assert!(live
        .apply(&meta, first.other(), Action::DrawAccept, "", 0)
        .is_err());
    assert_eq!(live.declined, Some(("draw", first.other())));
    let mv = live.game.legal_moves()[0].clone();
    live.apply(&meta, first, Action::Move, &mv, 0).unwrap();
    assert_eq!(live.declined, None);
}

#[test]
fn a_join_survives_a_reload_and_works_once() {
    let meta = meta();
    let mut live = Live::new(&meta).unwrap();
    let digest = token::to_hex(&token::hash("fresh"));
    let data = live
        .apply(&meta, Seat::Second, Action::Join, &digest, 0)
        .unwrap();
    let events = [Event {
        seq: 1,
        seat: Seat::Second,
        action: Action::Join,
        data,
        at_ms: 0,
    }];
    let replayed = Live::replay(&meta, &events).unwrap();
    assert_eq!(replayed.joined, [None, Some(token::hash("fresh"))]);
    let e = live
        .apply(&meta, Seat::Second, Action::Join, &digest, 0)
        .unwrap_err();
    assert!(
        matches!(
            e,
            ActionError::Conflict {
                code: "invite_used",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn regression_21_logs_that_declined_an_offer_after_the_end_still_load() {
    let meta = meta();
    let (live, mut events) = log_with_an_offer_pending_at_the_end(&meta);
    // Written by an earlier server, which let the offer be declined after the end.
    events.push(Event {
        seq: live.version + 1,
        seat: live.moves.last().unwrap().seat.other(),
        action: Action::DrawDecline,
        data: String::new(),
        at_ms: 0,
    });
    let replayed = Live::replay(&meta, &events).unwrap();
    assert_eq!(replayed.version, live.version + 1);
    assert_eq!(replayed.moves, live.moves);
    assert!(replayed.finished());
}
