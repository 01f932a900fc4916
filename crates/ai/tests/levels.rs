//! The level tables of the games played by alpha-beta.

use boardlab_ai::knowledge::GameAi;
use boardlab_ai::BotSpec;
use boardlab_assideum::Assideum;
use boardlab_opprimo::Opprimo;

fn time_of(spec: &BotSpec) -> Option<(u64, u32)> {
    match spec {
        BotSpec::Best(b) => Some((b.time?.as_millis() as u64, b.threads)),
        _ => None,
    }
}

#[test]
fn alphabeta_levels_fill_the_fixed_budgets_then_the_times() {
    let timed: Vec<_> = (7..=10)
        .map(|n| time_of(&Assideum::level_spec(n)))
        .collect();
    assert_eq!(
        timed,
        [
            Some((100, 1)),
            Some((300, 1)),
            Some((1000, 1)),
            Some((3000, 0))
        ]
    );
    assert_eq!(Assideum::level_spec(3).to_string(), "alphabeta:nodes=600");

    assert_eq!(
        Opprimo::level_spec(2).to_string(),
        "mcts:plain,iterations=300"
    );
    assert_eq!(Opprimo::level_spec(7).to_string(), "alphabeta:nodes=120000");
    let timed: Vec<_> = (8..=10).map(|n| time_of(&Opprimo::level_spec(n))).collect();
    assert_eq!(timed, [Some((100, 1)), Some((300, 1)), Some((3000, 0))]);
    // Out-of-range levels are clamped, as `level:N` parsing allows only 1..=10.
    assert_eq!(Opprimo::level_spec(0), Opprimo::level_spec(1));
}
