"""The vectorised environments (boardlab.vector): step for step against single games played
through boardlab.Game, seeding, auto-reset, masks, rewards, bad actions and the search."""

import numpy as np
import pytest
from conftest import GAMES

import boardlab
from boardlab.vector import BotOpponentVectorEnv, VectorEnv


def replica(env, i, options):
    return boardlab.Game(env.game, options, position=env.position(i))


def check_row(batch, i, game, view=None):
    view = game.to_move if view is None else view
    assert np.array_equal(batch.observation[i], game.planes(view))
    assert np.array_equal(batch.action_mask[i], game.action_mask().astype(bool))
    assert batch.current_player[i] == game.to_move


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_steps_agree_with_single_games(game, options):
    n = 3
    env = VectorEnv(game, n, options, seed=4)
    batch = env.reset()
    games = [replica(env, i, options) for i in range(n)]
    for i, g in enumerate(games):
        check_row(batch, i, g)
    ended = 0
    for _ in range(60 if game == "assideum" else 150):
        actions = env.sample_actions()
        batch = env.step(actions)
        for i in range(n):
            games[i].play_action(int(actions[i]))
            if games[i].is_over:
                ended += 1
                assert batch.terminated[i] and not batch.truncated[i]
                want = [games[i].reward(0), games[i].reward(1)]
                assert batch.rewards[i].tolist() == want
                games[i] = replica(env, i, options)
                assert games[i].ply == 0
            else:
                assert not batch.terminated[i] and not batch.truncated[i]
                assert batch.rewards[i].tolist() == [0.0, 0.0]
                assert games[i].position == env.position(i)
            check_row(batch, i, games[i])
    if game == "sight-reduction":
        assert ended > 0


@pytest.mark.parametrize(("game", "options"), [("sight-reduction", None), ("opprimo", None)])
def test_steps_agree_with_the_pettingzoo_environment(game, options):
    from boardlab.pettingzoo_env import env as aec_env

    n = 4
    vec = VectorEnv(game, n, options, seed=8)
    batch = vec.reset()

    def start(i):
        single = aec_env(game, options)
        single.reset()
        single.game = replica(vec, i, options)
        single._reset_state()
        return single

    singles = [start(i) for i in range(n)]
    for _ in range(120):
        for i, single in enumerate(singles):
            obs = single.observe(single.agent_selection)
            assert np.array_equal(batch.observation[i], obs["observation"])
            assert np.array_equal(batch.action_mask[i], obs["action_mask"].astype(bool))
            assert batch.current_player[i] == single.possible_agents.index(single.agent_selection)
        actions = vec.sample_actions()
        batch = vec.step(actions)
        for i, single in enumerate(singles):
            single.step(int(actions[i]))
            ended = all(single.terminations.values())
            assert batch.terminated[i] == ended
            if ended:
                assert batch.rewards[i].tolist() == [single.rewards[a] for a in single.agents]
                singles[i] = start(i)


def batches(seed, threads, steps=40, num_envs=32):
    env = VectorEnv("sight-reduction", num_envs, seed=seed, num_threads=threads)
    out = [env.reset().copy()]
    for _ in range(steps):
        out.append(env.step(env.sample_actions()).copy())
    return out


def same(a, b):
    return all(
        np.array_equal(getattr(a, f), getattr(b, f))
        for f in ("observation", "action_mask", "current_player", "rewards", "terminated")
    )


def test_the_same_seed_gives_the_same_games_whatever_the_threads():
    one, two = batches(9, 1), batches(9, 2)
    assert all(same(a, b) for a, b in zip(one, two))
    assert not same(batches(10, 1, steps=0)[0], one[0])
    env = VectorEnv("sight-reduction", 32, seed=10)
    assert same(env.reset(seed=9), one[0])


def test_the_batch_is_reused_read_only_and_out_fills_the_callers_arrays():
    env = VectorEnv("opprimo", 8, seed=1)
    mine = VectorEnv("opprimo", 8, seed=1)
    batch = env.reset()
    out = mine.new_batch()
    assert mine.reset(out=out) is out
    with pytest.raises(ValueError):
        batch.observation[0, 0, 0, 0] = 1.0
    for _ in range(30):
        actions = env.sample_actions()
        assert np.array_equal(actions, mine.sample_actions())
        assert env.step(actions) is batch
        assert mine.step(actions, out=out) is out
        assert same(batch, out)
    # A caller's array that was changed between steps is cleared whole, never trusted.
    out.action_mask[:] = True
    actions = env.sample_actions()
    mine.sample_actions()
    assert same(env.step(actions), mine.step(actions, out=out))


def test_a_bad_action_names_its_env_and_changes_nothing():
    env = VectorEnv("sight-reduction", 4, seed=2)
    with pytest.raises(boardlab.BoardlabError, match="reset"):
        env.step([0, 0, 0, 0])
    batch = env.reset()
    before = batch.copy()
    positions = [env.position(i) for i in range(4)]
    actions = env.sample_actions()
    illegal = int(np.flatnonzero(~batch.action_mask[2])[0])
    for bad, message in [(illegal, "not legal"), (-1, "out of range"), (5000, "out of range")]:
        wrong = actions.copy()
        wrong[2] = bad
        with pytest.raises(boardlab.IllegalMoveError, match=f"env 2: .*{message}"):
            env.step(wrong)
        assert same(batch, before)
        assert [env.position(i) for i in range(4)] == positions
    with pytest.raises(boardlab.BoardlabError, match="3 actions for 4 envs"):
        env.step(actions[:3])
    with pytest.raises(boardlab.BoardlabError, match="integers"):
        env.step(actions.astype(float))
    env.step(actions)
    assert [env.position(i) for i in range(4)] != positions


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"game": "chess", "num_envs": 2}, boardlab.UnknownGameError, "chess"),
        ({"game": "opprimo", "num_envs": 0}, boardlab.OptionError, "num_envs"),
        ({"game": "opprimo", "num_envs": 2, "num_threads": 0}, boardlab.OptionError, "threads"),
        ({"game": "opprimo", "num_envs": 2, "options": "nope=1"}, boardlab.OptionError, "nope"),
        ({"game": "obsidio", "num_envs": 1, "options": {"size": 11}}, boardlab.OptionError, "too many"),
        (
            {"game": "sight-reduction", "num_envs": 1, "options": "mode=solitaire"},
            boardlab.OptionError,
            "solitaire",
        ),
    ],
)
def test_bad_settings_are_refused(kwargs, error, message):
    with pytest.raises(error, match=message):
        VectorEnv(**kwargs)


def test_max_moves_truncates():
    env = VectorEnv("opprimo", 2, max_moves=2)
    env.reset()
    assert not env.step(env.sample_actions()).truncated.any()
    batch = env.step(env.sample_actions())
    assert batch.truncated.all() and not batch.terminated.any()
    assert [boardlab.Game("opprimo", position=env.position(i)).ply for i in range(2)] == [0, 0]


def test_the_gymnasium_vector_env_plays_against_a_bot():
    env = BotOpponentVectorEnv("sight-reduction", 16, bot="random", seat="alternate", seed=3)
    assert env.seats.tolist() == [0, 1] * 8
    obs, infos = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    results = []
    for _ in range(120):
        actions = env.sample_actions()
        assert env.action_space.contains(actions)
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert env.observation_space.contains(obs)
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        assert rewards.shape == (16,) and not truncated.any()
        assert np.array_equal(rewards != 0, terminated)
        if terminated.any():
            assert np.array_equal(infos["_final_obs"], terminated)
            results.extend(rewards[terminated].tolist())
        for i in range(16):
            g = boardlab.Game("sight-reduction", position=env._vec.position(i))
            assert g.to_move == env.seats[i]
            assert np.array_equal(obs["observation"][i], g.planes(int(env.seats[i])))
    assert results.count(1.0) > 10 and results.count(-1.0) > 10
    with pytest.raises(boardlab.BotError):
        BotOpponentVectorEnv("sight-reduction", 2, bot="nonsense")
    with pytest.raises(boardlab.BoardlabError, match="seat"):
        BotOpponentVectorEnv("sight-reduction", 2, seat=2)


def test_the_search_without_an_evaluator_stays_legal_and_seeded():
    env = VectorEnv("sight-reduction", 6, seed=5)
    batch = env.reset()
    result = env.search(simulations=50, seed=1)
    assert result.policy.shape == (6, env.action_count)
    assert np.allclose(result.policy.sum(axis=1), 1.0)
    assert not (result.policy[~batch.action_mask] > 0).any()
    assert batch.action_mask[np.arange(6), result.action].all()
    assert ((result.value >= -1) & (result.value <= 1)).all()
    again = env.search(simulations=50, seed=1)
    assert np.array_equal(again.policy, result.policy)
    noisy = env.search(simulations=50, seed=1, noise_fraction=0.25)
    assert not np.array_equal(noisy.policy, result.policy)
    assert np.array_equal(noisy.policy, env.search(simulations=50, seed=1, noise_fraction=0.25).policy)
    for bad in ({"simulations": 0}, {"noise_fraction": 2.0}, {"c_puct": -1.0}):
        with pytest.raises(boardlab.OptionError):
            env.search(**bad)


def test_the_search_asks_the_evaluator_for_batches():
    env = VectorEnv("opprimo", 4, seed=5)
    batch = env.reset()
    seen = []

    def evaluate(planes, masks):
        seen.append(planes.shape[0])
        if len(seen) == 1:
            assert np.array_equal(planes, batch.observation)
            assert np.array_equal(masks, batch.action_mask)
        policy = masks * np.arange(masks.shape[1])  # the highest legal id is preferred
        return policy, np.zeros(len(planes))

    result = env.search(simulations=8, evaluate=evaluate)
    assert seen == [4] * 8
    top = np.array([np.flatnonzero(m).max() for m in batch.action_mask])
    assert np.array_equal(result.action, top)

    def broken(planes, masks):
        raise KeyError("the network is down")

    with pytest.raises(KeyError, match="network"):
        env.search(simulations=2, evaluate=broken)
    with pytest.raises(boardlab.BoardlabError, match="policy of shape"):
        env.search(simulations=2, evaluate=lambda p, m: (np.zeros(3), np.zeros(len(p))))
