"""boardlab: rules engines, bots, an exact solver and learning environments for Obsidio,
Opprimo, Sight Reduction and assideum.

>>> import boardlab
>>> g = boardlab.Game("sight-reduction", seed=7)
>>> g.play(g.legal_moves()[0])  # doctest: +SKIP

The reference is ``docs/python.md`` in the boardlab repository. The PettingZoo environments
are in :mod:`boardlab.pettingzoo_env`, the Gymnasium single-agent environments in
:mod:`boardlab.gym_env`, and the vectorised environments, stepped in Rust, with the batched
tree search in :mod:`boardlab.vector`.
"""

from __future__ import annotations

import json

from ._boardlab import (
    BoardlabError,
    BotError,
    GameOverError,
    MAX_MASK,
    IllegalMoveError,
    MalformedMoveError,
    OptionError,
    PositionError,
    Game,
    SolverError,
    UnknownGameError,
    games,
    parse_bot,
    play_random_game,
)
from ._boardlab import _game_info_json

__all__ = [
    "BoardlabError",
    "BotError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "MAX_MASK",
    "MalformedMoveError",
    "OptionError",
    "PositionError",
    "SolverError",
    "UnknownGameError",
    "game_info",
    "games",
    "parse_bot",
    "play_random_game",
]


def game_info(name: str) -> dict:
    """A game's static facts: name, title, summary, colours, options (name, label, accepted
    values, default, description), whether draws are possible, move examples."""
    return json.loads(_game_info_json(name))
