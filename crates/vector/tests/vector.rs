//! The vectorised environments against the engines: every step of every env agrees with the
//! same game played move by move through the checked single-game path.

use boardlab_ai::BotSpec;
use boardlab_core::{Outcome, Seat};
use boardlab_games::{AnyGame, GameKind};
use boardlab_vector::{AgentSeats, Config, Opponent, Outputs, SearchConfig, VecEnv, VecError};

/// Owned arrays for [`Outputs`].
#[derive(Clone, Debug, PartialEq)]
struct Arrays {
    observation: Vec<f32>,
    mask: Vec<bool>,
    player: Vec<i32>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    last: Vec<f32>,
}

impl Arrays {
    fn new(env: &VecEnv) -> Arrays {
        let n = env.num_envs();
        let pl: usize = env.planes_shape().iter().product();
        Arrays {
            observation: vec![0.0; n * pl],
            mask: vec![false; n * env.action_count()],
            player: vec![0; n],
            rewards: vec![0.0; n * 2],
            terminated: vec![false; n],
            truncated: vec![false; n],
            last: vec![0.0; n * pl],
        }
    }

    fn out(&mut self, current: bool) -> Outputs<'_> {
        Outputs {
            observation: &mut self.observation,
            action_mask: &mut self.mask,
            mask_is_current: current,
            current_player: &mut self.player,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            final_observation: Some(&mut self.last),
        }
    }
}

fn config(kind: GameKind, options: &str, num_envs: usize, seed: u64, threads: usize) -> Config {
    Config {
        kind,
        options: kind.parse_options(options).expect("options"),
        num_envs,
        seed,
        threads,
        max_moves: None,
        opponent: None,
    }
}

fn planes(game: &AnyGame, view: Seat) -> Vec<f32> {
    let enc = game.encoding().expect("encoding");
    let [c, h, w] = enc.planes_shape();
    let mut out = vec![0.0; c * h * w];
    enc.write_planes(view, &mut out);
    out
}

/// Checks env `i`'s rows against `game` seen from `view`.
fn check_rows(env: &VecEnv, a: &Arrays, i: usize, game: &AnyGame, view: Seat) {
    let pl: usize = env.planes_shape().iter().product();
    let count = env.action_count();
    assert_eq!(
        &a.observation[i * pl..(i + 1) * pl],
        planes(game, view).as_slice()
    );
    let legal = game.encoding().expect("encoding").legal_actions();
    let mut want = vec![false; count];
    for id in &legal {
        want[*id as usize] = true;
    }
    assert_eq!(
        &a.mask[i * count..(i + 1) * count],
        want.as_slice(),
        "mask of env {i}"
    );
    assert_eq!(a.player[i], i32::from(game.to_move() == Seat::Second));
    assert_eq!(env.legal(i), Some(legal.as_slice()));
}

fn seat_rewards(outcome: &Outcome) -> [f32; 2] {
    match *outcome {
        Outcome::Win {
            seat: Seat::First, ..
        } => [1.0, -1.0],
        Outcome::Win { .. } => [-1.0, 1.0],
        _ => [0.0, 0.0],
    }
}

/// Steps `env` with its own random actions and replays every env on a copy through the
/// checked path (`play_action`), comparing games and arrays after every step.
fn agree_with_the_engine(kind: GameKind, options: &str, steps: usize) {
    let mut env = VecEnv::new(config(kind, options, 5, 11, 1)).expect("env");
    let mut a = Arrays::new(&env);
    env.reset(None, a.out(false)).expect("reset");
    let n = env.num_envs();
    let mut replicas: Vec<AnyGame> = (0..n).map(|i| env.game(i).expect("game").clone()).collect();
    for (i, g) in replicas.iter().enumerate() {
        check_rows(&env, &a, i, g, g.to_move());
    }
    let mut ended = 0;
    let mut actions = vec![0i64; n];
    for step in 0..steps {
        env.sample_actions(&mut actions).expect("sample");
        // Alternate the two ways of clearing masks: whole rows, and only the last legal ids.
        env.step(&actions, a.out(step % 2 == 1)).expect("step");
        for i in 0..n {
            let r = &mut replicas[i];
            r.encoding_mut()
                .expect("encoding")
                .play_action(actions[i] as u32)
                .expect("the sampled action is legal");
            let now = env.game(i).expect("game");
            match r.outcome() {
                Some(o) => {
                    ended += 1;
                    assert!(a.terminated[i] && !a.truncated[i]);
                    assert_eq!(&a.rewards[2 * i..2 * i + 2], &seat_rewards(&o));
                    let pl: usize = env.planes_shape().iter().product();
                    assert_eq!(
                        &a.last[i * pl..(i + 1) * pl],
                        planes(r, r.to_move()).as_slice()
                    );
                    assert_eq!(now.ply(), 0, "a new game starts in the same step");
                    *r = now.clone();
                }
                None => {
                    assert!(!a.terminated[i] && !a.truncated[i]);
                    assert_eq!(&a.rewards[2 * i..2 * i + 2], &[0.0, 0.0]);
                    assert_eq!(now, &*r, "env {i} after step {step}");
                }
            }
            check_rows(&env, &a, i, r, r.to_move());
        }
    }
    assert!(
        ended > 0 || steps < 50,
        "{kind}: no game ended in {steps} steps"
    );
}

#[test]
fn sight_reduction_steps_agree_with_the_engine() {
    agree_with_the_engine(GameKind::named("sight-reduction").expect("game"), "", 120);
    agree_with_the_engine(
        GameKind::named("sight-reduction").expect("game"),
        "sight=any,removal=pair,setup=fair",
        120,
    );
}

#[test]
fn obsidio_steps_agree_with_the_engine() {
    agree_with_the_engine(GameKind::named("obsidio").expect("game"), "size=7", 150);
}

#[test]
fn opprimo_steps_agree_with_the_engine() {
    agree_with_the_engine(GameKind::named("opprimo").expect("game"), "", 150);
}

#[test]
fn assideum_steps_agree_with_the_engine() {
    agree_with_the_engine(GameKind::named("assideum").expect("game"), "", 40);
}

fn run(env: &mut VecEnv, steps: usize) -> Vec<Arrays> {
    let mut a = Arrays::new(env);
    let mut seen = Vec::new();
    env.reset(None, a.out(false)).expect("reset");
    seen.push(a.clone());
    let mut actions = vec![0; env.num_envs()];
    for _ in 0..steps {
        env.sample_actions(&mut actions).expect("sample");
        env.step(&actions, a.out(true)).expect("step");
        seen.push(a.clone());
    }
    seen
}

#[test]
fn the_same_seed_gives_the_same_batches_whatever_the_threads() {
    let kind = GameKind::named("sight-reduction").expect("game");
    let one = run(
        &mut VecEnv::new(config(kind, "", 64, 5, 1)).expect("env"),
        60,
    );
    let two = run(
        &mut VecEnv::new(config(kind, "", 64, 5, 2)).expect("env"),
        60,
    );
    assert_eq!(one, two);
    let other = run(
        &mut VecEnv::new(config(kind, "", 64, 6, 2)).expect("env"),
        0,
    );
    assert_ne!(one[0].observation, other[0].observation);
    // reset(seed) gives what a new env with that seed gives.
    let mut env = VecEnv::new(config(kind, "", 64, 6, 1)).expect("env");
    let mut a = Arrays::new(&env);
    env.reset(Some(5), a.out(false)).expect("reset");
    assert_eq!(a.observation, one[0].observation);
}

#[test]
fn an_illegal_action_names_its_env_and_changes_nothing() {
    let kind = GameKind::named("opprimo").expect("game");
    let mut env = VecEnv::new(config(kind, "", 6, 1, 2)).expect("env");
    let mut a = Arrays::new(&env);
    env.reset(None, a.out(false)).expect("reset");
    let mut actions = vec![0; 6];
    env.sample_actions(&mut actions).expect("sample");
    let before = a.clone();
    let games: Vec<AnyGame> = (0..6).map(|i| env.game(i).expect("game").clone()).collect();
    let illegal = (0..env.action_count() as i64)
        .find(|id| !env.legal(3).expect("legal").contains(&(*id as u32)))
        .expect("an illegal id");
    for (bad, want) in [
        (illegal, "not legal"),
        (-1, "out of range"),
        (1 << 40, "out of range"),
    ] {
        let mut wrong = actions.clone();
        wrong[3] = bad;
        let err = env.step(&wrong, a.out(true)).expect_err("illegal");
        assert!(matches!(err, VecError::Action { index: 3, .. }), "{err}");
        assert!(err.to_string().starts_with("env 3: "), "{err}");
        assert!(err.to_string().contains(want), "{err}");
        assert_eq!(a, before);
        for (i, g) in games.iter().enumerate() {
            assert_eq!(env.game(i).expect("game"), g);
        }
    }
    let err = env.step(&actions[..5], a.out(true)).expect_err("short");
    assert!(matches!(err, VecError::Shape(_)), "{err}");
    env.step(&actions, a.out(true))
        .expect("the good actions still play");
}

#[test]
fn against_a_bot_the_agent_is_always_to_move() {
    let kind = GameKind::named("sight-reduction").expect("game");
    let mut cfg = config(kind, "", 16, 3, 2);
    cfg.opponent = Some(Opponent {
        bot: "random".parse::<BotSpec>().expect("bot"),
        seats: AgentSeats::Alternate,
    });
    let mut env = VecEnv::new(cfg).expect("env");
    let seats = env.agent_seats().expect("seats");
    assert_eq!(seats[0], Seat::First);
    assert_eq!(seats[1], Seat::Second);
    let mut a = Arrays::new(&env);
    env.reset(None, a.out(false)).expect("reset");
    let mut actions = vec![0; 16];
    let (mut wins, mut losses) = (0, 0);
    for _ in 0..200 {
        env.sample_actions(&mut actions).expect("sample");
        env.step(&actions, a.out(true)).expect("step");
        for (i, &seat) in seats.iter().enumerate() {
            let g = env.game(i).expect("game");
            assert_eq!(g.to_move(), seat);
            check_rows(&env, &a, i, g, seat);
            let r = a.rewards[2 * i + seat.index()];
            assert_eq!(a.terminated[i], r != 0.0, "no draws in Sight Reduction");
            wins += usize::from(r > 0.0);
            losses += usize::from(r < 0.0);
        }
    }
    assert!(wins > 20 && losses > 20, "{wins} wins, {losses} losses");
}

#[test]
fn max_moves_truncates_and_starts_the_next_game() {
    let kind = GameKind::named("opprimo").expect("game");
    let mut cfg = config(kind, "", 4, 0, 1);
    cfg.max_moves = Some(3);
    let mut env = VecEnv::new(cfg).expect("env");
    let mut a = Arrays::new(&env);
    env.reset(None, a.out(false)).expect("reset");
    let mut actions = vec![0; 4];
    for step in 1..=6 {
        env.sample_actions(&mut actions).expect("sample");
        env.step(&actions, a.out(true)).expect("step");
        let cut = step % 3 == 0;
        assert_eq!(a.truncated, vec![cut; 4], "step {step}");
        assert_eq!(a.terminated, vec![false; 4]);
        assert_eq!(
            env.game(0).expect("game").ply(),
            if cut { 0 } else { step % 3 }
        );
    }
}

#[test]
fn bad_configurations_are_refused() {
    let sr = GameKind::named("sight-reduction").expect("game");
    for (cfg, want) in [
        (config(sr, "", 0, 0, 1), "num_envs"),
        (config(sr, "", 2, 0, 0), "threads"),
        (config(sr, "mode=solitaire", 2, 0, 1), "solitaire"),
        (
            config(
                GameKind::named("obsidio").expect("game"),
                "size=11",
                1,
                0,
                1,
            ),
            "too many",
        ),
    ] {
        let err = VecEnv::new(cfg).expect_err(want);
        assert!(err.to_string().contains(want), "{err}");
    }
}

/// The first position along a seeded random game where the side to move has a move that
/// wins at once and a move that does not.
fn position_with_a_win_in_one(seed: u64) -> (VecEnv, Vec<u32>) {
    let kind = GameKind::named("sight-reduction").expect("game");
    let mut env = VecEnv::new(config(kind, "", 1, seed, 1)).expect("env");
    let mut a = Arrays::new(&env);
    env.reset(None, a.out(false)).expect("reset");
    let mut action = [0];
    for _ in 0..200 {
        let g = env.game(0).expect("game").clone();
        let me = g.to_move();
        let wins: Vec<u32> = env
            .legal(0)
            .expect("legal")
            .iter()
            .copied()
            .filter(|&id| {
                let mut c = g.clone();
                c.encoding_mut()
                    .expect("encoding")
                    .play_action(id)
                    .expect("legal");
                matches!(c.outcome(), Some(Outcome::Win { seat, .. }) if seat == me)
            })
            .collect();
        if !wins.is_empty() && wins.len() < env.legal(0).expect("legal").len() {
            return (env, wins);
        }
        env.sample_actions(&mut action).expect("sample");
        env.step(&action, a.out(true)).expect("step");
    }
    panic!("no position with a win in one");
}

#[test]
fn the_search_finds_a_win_in_one() {
    for seed in 0..5 {
        let (env, wins) = position_with_a_win_in_one(seed);
        let cfg = SearchConfig {
            seed,
            ..SearchConfig::new(400)
        };
        let out = env.search(cfg, None).expect("search");
        assert!(
            wins.contains(&(out.best[0] as u32)),
            "seed {seed}: {:?} not in {wins:?}",
            out.best
        );
        let total: f32 = out.policy.iter().sum();
        assert!((total - 1.0).abs() < 1e-4);
        assert!(out.value[0] > 0.5, "{}", out.value[0]);
        assert_eq!(env.search(cfg, None).expect("search"), out, "seeded");
    }
}

#[test]
fn the_search_asks_its_evaluator_for_batches_of_leaves() {
    let kind = GameKind::named("opprimo").expect("game");
    let mut env = VecEnv::new(config(kind, "", 8, 2, 2)).expect("env");
    let mut a = Arrays::new(&env);
    env.reset(None, a.out(false)).expect("reset");
    let count = env.action_count();
    let mut calls = Vec::new();
    // Puts every prior on the highest legal id: the search then visits only that move.
    let mut evaluate =
        |leaves: boardlab_vector::Leaves<'_>, priors: &mut [f32], values: &mut [f32]| {
            if calls.is_empty() {
                assert_eq!(
                    leaves.planes,
                    a.observation.as_slice(),
                    "the roots come first"
                );
                assert_eq!(leaves.masks, a.mask.as_slice());
            }
            calls.push(leaves.count);
            for row in 0..leaves.count {
                let mask = &leaves.masks[row * count..(row + 1) * count];
                let top = mask.iter().rposition(|&m| m).expect("a legal id");
                priors[row * count + top] = 1.0;
                values[row] = 0.25;
            }
            Ok(())
        };
    let cfg = SearchConfig {
        c_puct: 1.0,
        ..SearchConfig::new(5)
    };
    let out = env.search(cfg, Some(&mut evaluate)).expect("search");
    assert_eq!(calls, vec![8; 5]);
    for i in 0..8 {
        let top = *env.legal(i).expect("legal").iter().max().expect("legal");
        assert_eq!(out.best[i], i64::from(top));
        assert_eq!(out.policy[i * count + top as usize], 1.0);
    }
    let mut failing =
        |_: boardlab_vector::Leaves<'_>, _: &mut [f32], _: &mut [f32]| Err("no".to_string());
    let err = env.search(cfg, Some(&mut failing)).expect_err("fails");
    assert!(matches!(err, VecError::Evaluator(_)), "{err}");
}

#[test]
fn root_noise_is_seeded_and_checked() {
    let kind = GameKind::named("sight-reduction").expect("game");
    let mut env = VecEnv::new(config(kind, "", 4, 1, 1)).expect("env");
    let mut a = Arrays::new(&env);
    env.reset(None, a.out(false)).expect("reset");
    let quiet = env.search(SearchConfig::new(30), None).expect("search");
    let noisy = SearchConfig {
        noise_fraction: 0.5,
        ..SearchConfig::new(30)
    };
    let one = env.search(noisy, None).expect("search");
    assert_eq!(env.search(noisy, None).expect("search"), one, "seeded");
    assert_ne!(
        one.policy, quiet.policy,
        "the noise changes where visits go"
    );
    for bad in [
        SearchConfig::new(0),
        SearchConfig {
            noise_fraction: 1.5,
            ..SearchConfig::new(5)
        },
        SearchConfig {
            noise_fraction: 0.25,
            noise_alpha: 0.0,
            ..SearchConfig::new(5)
        },
        SearchConfig {
            c_puct: f32::NAN,
            ..SearchConfig::new(5)
        },
    ] {
        assert!(matches!(env.search(bad, None), Err(VecError::Config(_))));
    }
}
