"""The Gymnasium single-agent environment against a bot."""

import numpy as np
import pytest

import boardlab
from boardlab.gym_env import BotOpponentEnv


def play_episode(env, seed, rng):
    obs, info = env.reset(seed=seed)
    trace = [info["position"]]
    total = 0.0
    while True:
        assert env.observation_space.contains(obs)
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append(info["position"])
        total += reward
        if terminated or truncated:
            return total, terminated, trace


@pytest.mark.parametrize(
    ("game", "options", "seat"),
    [
        ("sight-reduction", None, 0),
        ("obsidio", {"size": 7}, 1),
        ("opprimo", None, 1),
        ("assideum", {"quiet-plies": 20}, 0),
    ],
)
def test_an_agent_plays_whole_games_against_a_bot(game, options, seat):
    env = BotOpponentEnv(game, options, bot="mcts:iterations=30", seat=seat, render_mode="ansi")
    total, terminated, trace = play_episode(env, 5, np.random.default_rng(0))
    assert terminated and total in (-1.0, 0.0, 1.0)
    assert total == env.game.reward(seat)
    assert isinstance(env.render(), str)
    # The same seeds replay the same episode.
    again = play_episode(env, 5, np.random.default_rng(0))
    assert again[2] == trace
    with pytest.raises(boardlab.GameOverError):
        env.step(0)


def test_the_bot_moves_first_when_its_seat_starts():
    env = BotOpponentEnv("opprimo", bot="random", seat=1)
    obs, info = env.reset(seed=1)
    assert info["moves"] == 1 and env.game.to_move == 1
    assert obs["action_mask"].sum() == 12


def test_truncation_and_bad_arguments():
    env = BotOpponentEnv("assideum", bot="random", max_moves=6)
    obs, _ = env.reset(seed=0)
    for _ in range(3):
        obs, reward, terminated, truncated, info = env.step(
            int(np.flatnonzero(obs["action_mask"])[0])
        )
    assert truncated and not terminated and reward == 0.0 and info["moves"] == 6
    with pytest.raises(boardlab.BotError):
        BotOpponentEnv("opprimo", bot="nonsense")
    with pytest.raises(boardlab.BoardlabError):
        BotOpponentEnv("opprimo", seat=2)
    env = BotOpponentEnv("opprimo", bot="random")
    obs, _ = env.reset(seed=0)
    with pytest.raises(boardlab.IllegalMoveError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
