"""Shared settings of the boardlab Python tests."""

#: Every game with options small enough for quick environment tests.
GAMES = [
    ("sight-reduction", None),
    ("sight-reduction", {"setup": "fair", "removal": "pair"}),
    ("sight-reduction", "setup=deterministic"),
    ("obsidio", {"size": 7}),
    ("obsidio", None),
    ("opprimo", None),
    ("assideum", None),
]
