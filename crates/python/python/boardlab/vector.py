"""Vectorised environments: many games of one kind stepped together in Rust.

>>> from boardlab.vector import VectorEnv
>>> env = VectorEnv("sight-reduction", num_envs=1024, seed=0, num_threads=2)
>>> batch = env.reset()
>>> batch = env.step(env.sample_actions())
>>> batch.observation.shape, batch.action_mask.shape
((1024, 12, 8, 4), (1024, 1061))

:class:`VectorEnv` is the two-player environment, in the style of pgx: every step plays one
action in every env, for whichever seat is to move there, and returns a :class:`Batch` of
NumPy arrays (planes from the side to move, legal-action masks, the seat to move, rewards per
seat, ``terminated`` and ``truncated``). A game that ends is replaced by the next game of that
env in the same step (same-step auto-reset): the rewards and flags describe the game that
ended, the planes and mask the next one. :class:`BotOpponentVectorEnv` is a Gymnasium
``VectorEnv`` in which the agent plays one seat and a bot the other, inside Rust.

The games move in Rust with Python's global interpreter lock released, on ``num_threads``
threads. Every env's set-ups, bot moves and sampled actions follow from the seed alone, so the
same seed gives the same batch whatever the number of threads. The arrays of the batch that
:meth:`VectorEnv.step` returns belong to the environment: each step overwrites them in place
(no new arrays, no copies) and they are read-only; copy what you keep, or pass ``out=`` a
:class:`Batch` of your own (:meth:`VectorEnv.new_batch`).

The reference is ``docs/python.md`` in the boardlab repository.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

import boardlab
from ._boardlab import _VectorEnv

__all__ = ["Batch", "BotOpponentVectorEnv", "SearchResult", "VectorEnv"]


@dataclass
class Batch:
    """The state of every env after a reset or a step, one row per env."""

    observation: np.ndarray
    """``(num_envs, channels, height, width)`` float32 planes from the side to move."""
    action_mask: np.ndarray
    """``(num_envs, action_count)`` bool: the legal ids of the side to move."""
    current_player: np.ndarray
    """``(num_envs,)`` int32: the seat to move, 0 or 1."""
    rewards: np.ndarray
    """``(num_envs, 2)`` float32: each seat's +1 / −1 / 0 on the step that ended a game."""
    terminated: np.ndarray
    """``(num_envs,)`` bool: the game ended by its rules in this step."""
    truncated: np.ndarray
    """``(num_envs,)`` bool: the game reached ``max_moves`` in this step."""

    def copy(self) -> "Batch":
        """A copy whose arrays the environment will not overwrite."""
        return Batch(*(np.array(getattr(self, f.name)) for f in fields(self)))

    def _set_writeable(self, flag: bool) -> None:
        for f in fields(self):
            getattr(self, f.name).flags.writeable = flag


@dataclass
class SearchResult:
    """What :meth:`VectorEnv.search` found, one row per env."""

    policy: np.ndarray
    """``(num_envs, action_count)`` float32: the share of the root's visits per id."""
    value: np.ndarray
    """``(num_envs,)`` float32: the root's mean value for the side to move, in −1..1."""
    action: np.ndarray
    """``(num_envs,)`` int64: the most visited id."""


class VectorEnv:
    """``num_envs`` games of one kind, stepped together; see the module documentation.

    ``options`` are the game's options (``None``, a dict or ``"key=value,…"``); ``seed`` the base
    seed; ``num_threads`` the threads that step the envs (1: the calling thread);
    ``max_moves`` cuts a game off (``truncated``) after that many moves of both seats.
    """

    def __init__(
        self,
        game: str,
        num_envs: int,
        options=None,
        seed: int = 0,
        num_threads: int = 1,
        max_moves: int | None = None,
    ):
        self._init(_VectorEnv(game, num_envs, options, seed, num_threads, max_moves), game)

    def _init(self, native: _VectorEnv, game: str) -> None:
        self._env = native
        self.game = boardlab.Game(game).name
        self.num_envs = native.num_envs
        self.action_count = native.action_count
        self.planes_shape = native.planes_shape
        self._batch = self.new_batch()
        self._batch._set_writeable(False)
        self._started = False

    def new_batch(self) -> Batch:
        """A batch of new arrays of the right shapes, to pass as ``out=``."""
        n = self.num_envs
        return Batch(
            observation=np.zeros((n, *self.planes_shape), dtype=np.float32),
            action_mask=np.zeros((n, self.action_count), dtype=np.bool_),
            current_player=np.zeros(n, dtype=np.int32),
            rewards=np.zeros((n, 2), dtype=np.float32),
            terminated=np.zeros(n, dtype=np.bool_),
            truncated=np.zeros(n, dtype=np.bool_),
        )

    def _write(self, call, out: Batch | None) -> Batch:
        """Runs ``call(batch, trusted)`` on ``out``, or on the environment's own batch, which
        is made writeable for the call only."""
        own = out is None
        batch = self._batch if own else out
        if own:
            batch._set_writeable(True)
        try:
            call(batch, own)
        finally:
            if own:
                batch._set_writeable(False)
        return batch

    def reset(self, seed: int | None = None, out: Batch | None = None) -> Batch:
        """Starts every env's first game again (under ``seed`` if given, else the seed in
        force) and returns the batch."""
        batch = self._write(lambda b, own: self._env.reset(seed, b, own), out)
        self._started = True
        return batch

    def step(self, actions, out: Batch | None = None, final_observation=None) -> Batch:
        """Plays ``actions[i]`` (an action id) in env ``i`` for every env and returns the batch.

        An action that is not legal in its env raises :class:`boardlab.IllegalMoveError` naming
        the env, and no env moves. ``final_observation``, an array shaped like
        ``observation``, receives the last planes of each game that ends in this step."""
        if not self._started:
            raise boardlab.BoardlabError("call reset() before step()")
        return self._write(
            lambda b, own: self._env.step(actions, b, final_observation, own), out
        )

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per env (int64), from each env's seeded stream."""
        return self._env.sample_actions()

    def position(self, index: int) -> str:
        """Env ``index``'s position text."""
        return self._env.position(index)

    def search(
        self,
        simulations: int = 64,
        evaluate=None,
        c_puct: float = 1.25,
        seed: int = 0,
        noise_alpha: float = 0.3,
        noise_fraction: float = 0.0,
    ) -> SearchResult:
        """A PUCT tree search from every env's position (AlphaZero style); the envs do not
        change.

        Each of the ``simulations`` rounds takes one path in every env's tree. The new leaves
        of a round go to ``evaluate(planes, masks)`` together: ``planes`` is a float32 array
        ``(leaves, channels, height, width)`` from each leaf's side to move and ``masks`` a
        bool array ``(leaves, action_count)``; it returns ``(policy, value)``, priors of shape
        ``(leaves, action_count)`` (weights, renormalised over the legal ids) and values in
        −1..1 for the side to move. Without ``evaluate`` the search stays in Rust: uniform
        priors and one seeded random playout per leaf. Finished games in the tree are scored
        by the rules.

        ``noise_fraction`` (0 to 1) mixes Dirichlet noise of concentration ``noise_alpha`` into
        each root's priors, as AlphaZero does in self-play; ``seed`` seeds it and the playouts.
        """
        policy, value, action = self._env.search(
            simulations, c_puct, seed, noise_alpha, noise_fraction, evaluate
        )
        return SearchResult(policy=policy, value=value, action=action)


def __getattr__(name: str):
    # The Gymnasium environment needs gymnasium, an optional dependency: imported on use.
    if name == "BotOpponentVectorEnv":
        from boardlab.gym_env import BotOpponentVectorEnv

        return BotOpponentVectorEnv
    raise AttributeError(f"module 'boardlab.vector' has no attribute {name!r}")
