"""PettingZoo AEC environments for the boardlab games.

>>> from boardlab.pettingzoo_env import env
>>> e = env("opprimo")
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents are the seats, ``player_0`` (first seat) and ``player_1`` (second seat); the agent to
act is always the seat the rules give the move to, so one agent may act several times in a row
(Sight Reduction's fair set-up, Obsidio after a swap). Observations are dicts: ``observation``,
the game's planes from that agent's point of view (``float32``, shape channels × height ×
width), and ``action_mask``, an ``int8`` vector over the game's action ids (all zeros for the
agent not to move). Rewards are +1 / -1 to the winner / loser and 0 to both after a draw, given
on the move that ends the game. A game ended by its rules (draws by repetition or move limits
included) terminates both agents; ``max_moves`` truncates both after that many moves.

Only two-player games are offered: Sight Reduction's ``mode=solitaire`` is a one-person puzzle
and is refused, and so is an action space too large for a dense mask (Obsidio on 11×11).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import boardlab

__all__ = ["BoardlabEnv", "env", "MAX_DENSE_ACTIONS"]

#: The largest action space offered with a dense mask (Obsidio 9×9 has 525,971 ids).
MAX_DENSE_ACTIONS = 1 << 22


class BoardlabEnv(AECEnv):
    """A boardlab game as a two-agent AEC environment; see the module documentation."""

    metadata = {
        "render_modes": ["ansi"],
        "name": "boardlab_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        options=None,
        render_mode: str | None = None,
        max_moves: int | None = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise boardlab.BoardlabError(
                f"render_mode {render_mode!r} is not offered; use None or 'ansi'"
            )
        if max_moves is not None and max_moves < 1:
            raise boardlab.BoardlabError("max_moves must be None or at least 1")
        probe = boardlab.Game(game, options)
        if probe.is_solitaire:
            raise boardlab.BoardlabError(
                "mode=solitaire is a one-person puzzle; the environments play two-player games"
            )
        if probe.action_count > MAX_DENSE_ACTIONS:
            raise boardlab.BoardlabError(
                f"{probe.name} with these options has {probe.action_count:,} action ids, "
                f"too many for a dense action mask (at most {MAX_DENSE_ACTIONS:,})"
            )
        self.game_name = probe.name
        self.game_options = probe.options
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.metadata = dict(self.metadata, name=f"boardlab_{probe.name.replace('-', '_')}_v0")
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        shape = probe.planes_shape
        self.action_spaces = {a: spaces.Discrete(probe.action_count) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(probe.action_count,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._rng = None
        self.game = probe
        self._reset_state()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _reset_state(self):
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.moves = 0
        self.agent_selection = self.possible_agents[self.game.to_move]

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Starts a new game. ``seed`` seeds the random set-ups of this and later resets;
        ``options`` is accepted for the API and not used (game options are fixed at creation)."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**63 - 1))
        self.game = boardlab.Game(self.game_name, self.game_options, seed=game_seed)
        self._reset_state()

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        if agent == self.agent_selection and not self.game.is_over:
            mask = self.game.action_mask()
        else:
            mask = np.zeros(self.game.action_count, dtype=np.int8)
        return {"observation": self.game.planes(seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise boardlab.IllegalMoveError(f"{agent} must act: the game is not over")
        self._cumulative_rewards[agent] = 0
        self.game.play_action(int(action))
        self.moves += 1
        self.rewards = {a: 0 for a in self.agents}
        if self.game.is_over:
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = self.game.reward(i)
                self.terminations[a] = True
        elif self.max_moves is not None and self.moves >= self.max_moves:
            for a in self.agents:
                self.truncations[a] = True
        self.agent_selection = self.possible_agents[self.game.to_move]
        self._accumulate_rewards()

    def render(self):
        """The board as text (with ``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        return self.game.diagram()

    def close(self):
        pass

    def __str__(self):
        return self.metadata["name"]


def env(game: str, options=None, render_mode: str | None = None, max_moves: int | None = None):
    """A :class:`BoardlabEnv` for ``game`` (``"sight-reduction"``, ``"obsidio"``,
    ``"opprimo"``, ``"assideum"``) with its options (a dict or ``"key=value,…"``)."""
    return BoardlabEnv(game, options, render_mode=render_mode, max_moves=max_moves)
