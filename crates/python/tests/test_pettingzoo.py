"""The PettingZoo AEC environments: PettingZoo's own API and seed tests for every game, and
short random self-play."""

import numpy as np
import pytest
from conftest import GAMES
from pettingzoo.test import api_test, seed_test

import boardlab
from boardlab.pettingzoo_env import BoardlabEnv, env


def ids(params):
    return [f"{g}-{o}" for g, o in params]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=ids(GAMES))
def test_pettingzoo_api(game, options):
    api_test(env(game, options, render_mode="ansi"), num_cycles=200)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=ids(GAMES))
def test_pettingzoo_seeds(game, options):
    seed_test(lambda: env(game, options), num_cycles=60)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=ids(GAMES))
def test_random_self_play_ends_with_opposite_rewards(game, options):
    e = env(game, options, render_mode="ansi")
    rng = np.random.default_rng(7)
    for episode in range(2):
        e.reset(seed=episode)
        totals = {a: 0.0 for a in e.possible_agents}
        steps = 0
        for agent in e.agent_iter(max_iter=5000):
            obs, reward, terminated, truncated, info = e.last()
            totals[agent] += reward
            if terminated or truncated:
                e.step(None)
                continue
            mask = obs["action_mask"]
            assert mask.any() and e.observation_space(agent).contains(obs)
            assert agent == e.possible_agents[e.game.to_move]
            e.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        assert not e.agents, "the game did not end"
        assert totals["player_0"] == -totals["player_1"]
        assert e.game.is_over and steps == e.game.ply
        assert isinstance(e.render(), str)


def test_max_moves_truncates_both_agents():
    e = env("opprimo", max_moves=4)
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            e.step(None)
        else:
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.moves == 4


def test_refused_configurations():
    with pytest.raises(boardlab.BoardlabError, match="solitaire"):
        BoardlabEnv("sight-reduction", {"mode": "solitaire"})
    with pytest.raises(boardlab.BoardlabError, match="too many"):
        BoardlabEnv("obsidio", {"size": 11})
    with pytest.raises(boardlab.BoardlabError, match="render_mode"):
        BoardlabEnv("opprimo", render_mode="human")


def test_illegal_actions_raise_and_change_nothing():
    e = env("assideum")
    e.reset(seed=0)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(boardlab.IllegalMoveError):
        e.step(bad)
    assert e.game.ply == 0 and e.agent_selection == "player_0"
