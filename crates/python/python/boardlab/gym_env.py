"""A Gymnasium single-agent environment: one seat of a boardlab game against a bot.

>>> from boardlab.gym_env import BotOpponentEnv
>>> e = BotOpponentEnv("sight-reduction", bot="mcts:iterations=200", seat=0)
>>> obs, info = e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.step(int(obs["action_mask"].nonzero()[0][0]))

The agent plays ``seat`` (0 = first seat, 1 = second seat); every move of the other seat is
chosen by ``bot`` (any bot spec: ``random``, ``mcts:iterations=N``, ``alphabeta:depth=N``,
``level:N``, …), before the agent's first move too when the other seat starts. Observations
are the same dicts as in :mod:`boardlab.pettingzoo_env` (planes from the agent's point of view
and the action mask); :meth:`BotOpponentEnv.action_masks` returns the mask alone, for maskable
learners. The reward is +1 for a win, -1 for a loss and 0 for a draw, given on the step that
ends the game (``terminated``); ``max_moves`` (moves of both seats) truncates. An illegal
action raises :class:`boardlab.IllegalMoveError` and changes nothing.

The bot's moves follow from the seed given to :meth:`reset`, so with a work budget (iterations,
nodes, depth, or ``random``) an episode replays exactly.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

import boardlab
from boardlab.pettingzoo_env import MAX_DENSE_ACTIONS

__all__ = ["BotOpponentEnv"]


class BotOpponentEnv(gymnasium.Env):
    """One seat of a boardlab game against a bot; see the module documentation."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        options=None,
        bot: str = "mcts:iterations=1000",
        seat: int = 0,
        render_mode: str | None = None,
        max_moves: int | None = None,
    ):
        if seat not in (0, 1):
            raise boardlab.BoardlabError(f"seat {seat} does not exist: seats are 0 and 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise boardlab.BoardlabError(
                f"render_mode {render_mode!r} is not offered; use None or 'ansi'"
            )
        if max_moves is not None and max_moves < 1:
            raise boardlab.BoardlabError("max_moves must be None or at least 1")
        self.bot = boardlab.parse_bot(bot)
        probe = boardlab.Game(game, options)
        if probe.is_solitaire:
            raise boardlab.BoardlabError(
                "mode=solitaire is a one-person puzzle; play it with boardlab.Game directly"
            )
        if probe.action_count > MAX_DENSE_ACTIONS:
            raise boardlab.BoardlabError(
                f"{probe.name} with these options has {probe.action_count:,} action ids, "
                f"too many for a dense action mask (at most {MAX_DENSE_ACTIONS:,})"
            )
        self.game_name = probe.name
        self.game_options = probe.options
        self.seat = seat
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.action_space = spaces.Discrete(probe.action_count)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=probe.planes_shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(probe.action_count,), dtype=np.int8),
            }
        )
        self.game = probe
        self.moves = 0
        self._bot_seed = 0

    def _observation(self):
        if self.game.is_over or self.game.to_move != self.seat:
            mask = np.zeros(self.game.action_count, dtype=np.int8)
        else:
            mask = self.game.action_mask()
        return {"observation": self.game.planes(self.seat), "action_mask": mask}

    def _info(self):
        return {"moves": self.moves, "position": self.game.position}

    def _truncated(self) -> bool:
        return self.max_moves is not None and self.moves >= self.max_moves

    def _bot_moves(self):
        """Plays the bot's moves until the agent is to move or the game ends."""
        while (
            not self.game.is_over and self.game.to_move != self.seat and not self._truncated()
        ):
            self._bot_seed += 1
            self.game.play(self.game.best_move(self.bot, seed=self._bot_seed))
            self.moves += 1

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Starts a new game; the bot moves first when its seat starts. ``options`` is not
        used (game options are fixed at creation)."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self._bot_seed = int(self.np_random.integers(0, 2**62))
        self.game = boardlab.Game(self.game_name, self.game_options, seed=game_seed)
        self.moves = 0
        self._bot_moves()
        return self._observation(), self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent now, as booleans."""
        return self._observation()["action_mask"].astype(bool)

    def step(self, action):
        if self.game.is_over or self._truncated():
            raise boardlab.GameOverError("the episode has ended; call reset()")
        self.game.play_action(int(action))
        self.moves += 1
        self._bot_moves()
        reward = 0.0
        terminated = self.game.is_over
        if terminated:
            reward = float(self.game.reward(self.seat))
        truncated = not terminated and self._truncated()
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self):
        """The board as text (with ``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        return self.game.diagram()
