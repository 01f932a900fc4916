"""A Gymnasium single-agent environment: one seat of a boardlab game against a bot.

>>> from boardlab.gym_env import BotOpponentEnv
>>> e = BotOpponentEnv("sight-reduction", bot="mcts:iterations=200", seat=0)
>>> obs, info = e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.step(int(obs["action_mask"].nonzero()[0][0]))

:class:`BotOpponentVectorEnv` is the same for many games at once, stepped in Rust (see
:mod:`boardlab.vector`).

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
from gymnasium.vector.utils import batch_space

import boardlab
from boardlab._boardlab import _VectorEnv
from boardlab.pettingzoo_env import MAX_DENSE_ACTIONS
from boardlab.vector import Batch, VectorEnv

__all__ = ["BotOpponentEnv", "BotOpponentVectorEnv"]


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


class BotOpponentVectorEnv(gymnasium.vector.VectorEnv):
    """A Gymnasium ``VectorEnv``: in each of ``num_envs`` games the agent plays ``seat`` and
    ``bot`` plays the other seat, inside Rust.

    ``seat`` is 0, 1 or ``"alternate"`` (env ``i`` plays seat ``i % 2``; ``seats`` holds each
    env's seat). Observations are dicts, as in :class:`boardlab.gym_env.BotOpponentEnv`:
    ``observation`` (planes from the agent's seat) and ``action_mask`` (int8), batched. The
    reward is +1 / −1 / 0 for the agent on the step that ends a game; auto-reset is same-step,
    and ``infos["final_obs"]`` holds the last planes of the games that ended (where
    ``infos["_final_obs"]`` is true).
    """

    def __init__(
        self,
        game: str,
        num_envs: int,
        options=None,
        bot: str = "random",
        seat=0,
        seed: int = 0,
        num_threads: int = 1,
        max_moves: int | None = None,
    ):
        native = _VectorEnv(game, num_envs, options, seed, num_threads, max_moves, bot, seat)
        self._vec = VectorEnv.__new__(VectorEnv)
        self._vec._init(native, game)
        self.num_envs = native.num_envs
        self.seats = np.array(native.agent_seats, dtype=np.int64)
        self._rows = np.arange(self.num_envs)
        count, shape = native.action_count, native.planes_shape
        self.single_action_space = spaces.Discrete(count)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(count,), dtype=np.int8),
            }
        )
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        mode = getattr(gymnasium.vector, "AutoresetMode", None)
        self.metadata = {"autoreset_mode": mode.SAME_STEP if mode else "same-step"}
        self._final = np.zeros((self.num_envs, *shape), dtype=np.float32)

    def _obs(self, batch: Batch) -> dict:
        return {"observation": batch.observation, "action_mask": batch.action_mask.view(np.int8)}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Starts every env's first game (the bot moves first where its seat starts)."""
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise boardlab.BoardlabError("seed must be one integer (it seeds every env)")
        batch = self._vec.reset(None if seed is None else int(seed))
        return self._obs(batch), {}

    def step(self, actions):
        batch = self._vec.step(actions, final_observation=self._final)
        rewards = batch.rewards[self._rows, self.seats]
        done = batch.terminated | batch.truncated
        infos = {}
        if done.any():
            infos = {"final_obs": self._final.copy(), "_final_obs": done.copy()}
        return self._obs(batch), rewards, batch.terminated, batch.truncated, infos

    def action_masks(self) -> np.ndarray:
        """The agent's legal actions now, as booleans ``(num_envs, action_count)``."""
        return self._vec._batch.action_mask

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per env."""
        return self._vec.sample_actions()
