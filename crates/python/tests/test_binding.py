"""The binding: games by name, options, positions, moves, errors, perft, playouts, bots and
the solver."""

import copy

import numpy as np
import pytest

import boardlab

SR_FULL = "BBBW/WBWB/BBWW/BBWW/BWBW/WBWB/BWWW/BBWW w"


def test_games_are_listed_with_their_options():
    assert boardlab.games() == ["sight-reduction", "obsidio", "opprimo", "assideum"]
    info = boardlab.game_info("obsidio")
    assert info["name"] == "obsidio"
    assert [o["name"] for o in info["options"]] == ["size", "tokens", "pie"]
    assert info["options"][0]["values"]["choices"] == ["7", "9", "11"]


def test_unknown_game_and_options_raise_with_the_engine_message():
    with pytest.raises(boardlab.UnknownGameError, match="accepted: sight-reduction"):
        boardlab.Game("chess")
    with pytest.raises(boardlab.OptionError, match="size"):
        boardlab.Game("obsidio", {"size": 8})
    with pytest.raises(boardlab.OptionError, match="unknown option 'colour'"):
        boardlab.Game("opprimo", "colour=blue")
    with pytest.raises(boardlab.OptionError):
        boardlab.Game("opprimo", {"castle": 3.5})
    with pytest.raises(boardlab.OptionError):
        boardlab.Game("opprimo", ["castle=hex"])
    # Every error is a ValueError too.
    assert issubclass(boardlab.IllegalMoveError, ValueError)


def test_options_from_dicts_and_strings_agree():
    a = boardlab.Game("obsidio", {"size": 7, "pie": False, "tokens": "auto"})
    b = boardlab.Game("obsidio", "size=7,pie=false")
    assert a.options == b.options == {"size": "7", "tokens": "auto", "pie": "false"}
    assert a == b


def test_positions_read_back():
    for name in boardlab.games():
        g = boardlab.Game(name, seed=5)
        # Ten random moves (a finished game may end by a repetition the text does not carry).
        rng = np.random.default_rng(11)
        for _ in range(10):
            g.play_action(int(rng.choice(g.legal_actions())))
        back = boardlab.Game(name, g.options, position=g.position)
        assert back.position == g.position
        assert back.legal_moves() == g.legal_moves()
    with pytest.raises(boardlab.PositionError, match="ranks"):
        boardlab.Game("sight-reduction", position="WB/BW w")


def test_moves_as_a_list_or_a_string():
    a = boardlab.Game("opprimo", moves=["k@d1e", "k@d11e", "b3-b5"])
    b = boardlab.Game("opprimo", moves="k@d1e k@d11e b3-b5")
    assert a.position == b.position and a.ply == 3
    c = boardlab.Game("sight-reduction", "setup=fair", seed=1, moves="swap a1 c3; done")
    assert c.ply == 2
    with pytest.raises(boardlab.IllegalMoveError, match="move 2"):
        boardlab.Game("opprimo", moves="k@d1e k@d1e")
    with pytest.raises(boardlab.MalformedMoveError, match="move 1"):
        boardlab.Game("opprimo", moves="hello")


def test_play_and_errors_leave_the_game_unchanged():
    g = boardlab.Game("sight-reduction", position=SR_FULL)
    before = g.position
    with pytest.raises(boardlab.MalformedMoveError, match="z9"):
        g.play("z9")
    with pytest.raises(boardlab.IllegalMoveError, match="not a legal move"):
        g.play("b1")
    assert g.position == before
    legal = g.legal_moves()
    assert len(legal) == 12
    assert g.play(legal[0].upper()) == legal[0]
    assert g.ply == 1 and g.to_move == 1 and g.colour_to_move == "black"
    assert g.colour_of(0) == "white"
    with pytest.raises(boardlab.BoardlabError, match="seats are 0"):
        g.colour_of(2)


def test_outcomes_and_rewards():
    g = boardlab.Game("sight-reduction", seed=2)
    assert g.outcome is None and g.reward(0) is None
    plies = g.random_playout(seed=4)
    assert plies == g.ply > 0
    o = g.outcome
    assert g.is_over and o["winner"] in (0, 1) and o["draw"] is False
    assert g.reward(o["winner"]) == 1.0 and g.reward(1 - o["winner"]) == -1.0
    assert g.legal_moves() == [] and g.legal_actions() == []
    with pytest.raises(boardlab.IllegalMoveError, match="over"):
        g.play("a1")
    with pytest.raises(boardlab.GameOverError):
        g.best_move("random")
    # A drawn game: Opprimo with a move limit of 2 plies.
    d = boardlab.Game("opprimo", {"max-plies": 2}, moves="k@d1e k@d11e")
    assert d.outcome["draw"] is True and d.reward(0) == d.reward(1) == 0.0


def test_perft_matches_the_reference_counts():
    assert boardlab.Game("sight-reduction", position=SR_FULL).perft(3) == 1642
    assert boardlab.Game("obsidio", {"size": 7}).perft(2) == 6536
    assert boardlab.Game("opprimo").perft(3) == 2136
    assert boardlab.Game("assideum").perft(2) == 2025
    divide = boardlab.Game("opprimo").divide(2)
    assert len(divide) == 12 and sum(divide.values()) == 144
    with pytest.raises(boardlab.BoardlabError):
        boardlab.Game("opprimo").divide(0)


def test_random_games_are_reproducible():
    for name in boardlab.games():
        a = boardlab.play_random_game(name, seed=9)
        b = boardlab.play_random_game(name, seed=9)
        assert a == b and a["plies"] > 0 and a["outcome"] is not None
        g = boardlab.Game(name, seed=9)
        assert g.random_playout(seed=9) == a["plies"]
        assert g.position == a["position"]


def test_copies_are_independent():
    g = boardlab.Game("assideum")
    h = g.copy()
    h.play("a2-a3")
    assert g.ply == 0 and h.ply == 1
    k = copy.deepcopy(h)
    assert k == h and k.position == h.position
    assert k != g


@pytest.mark.parametrize("name", ["sight-reduction", "obsidio", "opprimo", "assideum"])
def test_action_ids_name_the_legal_moves(name):
    options = {"size": 7} if name == "obsidio" else None
    g = boardlab.Game(name, options, seed=3)
    rng = np.random.default_rng(1)
    for _ in range(60):
        if g.is_over:
            break
        legal = g.legal_moves()
        ids = g.legal_actions()
        assert len(set(ids)) == len(ids) == len(legal)
        assert all(0 <= i < g.action_count for i in ids)
        assert [g.move_of(i) for i in ids] == legal
        assert [g.action_of(m) for m in legal] == ids
        mask = g.action_mask()
        assert mask.dtype == np.int8 and mask.shape == (g.action_count,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
        pick = ids[rng.integers(len(ids))]
        assert g.play_action(pick) == legal[ids.index(pick)]


def test_bad_action_ids_raise():
    g = boardlab.Game("opprimo")
    legal = set(g.legal_actions())
    illegal = next(i for i in range(g.action_count) if i not in legal)
    for bad in [-1, g.action_count, 2**40, illegal]:
        with pytest.raises(boardlab.IllegalMoveError):
            g.play_action(bad)
        with pytest.raises(boardlab.IllegalMoveError):
            g.move_of(bad)
    assert g.ply == 0
    with pytest.raises(boardlab.IllegalMoveError, match="illegal move"):
        g.action_of("b3-b5")
    with pytest.raises(boardlab.MalformedMoveError):
        g.action_of("b3-b6")


def test_action_counts():
    counts = {
        ("sight-reduction", None): 1061,
        ("obsidio", "size=7"): 2931,
        ("obsidio", None): 525971,
        ("obsidio", "size=11"): 419434123,
        ("opprimo", None): 403,
        ("assideum", None): 20928,
    }
    for (name, options), n in counts.items():
        assert boardlab.Game(name, options).action_count == n
    # 11×11 Obsidio's ids are too many for a mask; its legal ids are still listed.
    big = boardlab.Game("obsidio", "size=11")
    with pytest.raises(boardlab.BoardlabError, match="legal_actions"):
        big.action_mask()
    assert [big.move_of(i) for i in big.legal_actions()] == big.legal_moves()


def test_planes_have_their_shape_and_point_of_view():
    shapes = {
        "sight-reduction": (12, 8, 4),
        "obsidio": (17, 9, 9),
        "opprimo": (12, 13, 7),
        "assideum": (32, 8, 8),
    }
    for name, shape in shapes.items():
        g = boardlab.Game(name, seed=1)
        p = g.planes()
        assert p.shape == shape == g.planes_shape
        assert p.dtype == np.float32 and p.min() >= 0.0 and p.max() <= 1.0
        assert np.array_equal(g.planes(g.to_move), p)
    g = boardlab.Game("sight-reduction", position=SR_FULL)
    white, black = g.planes(0), g.planes(1)
    assert white[0].sum() == 16 and black[0].sum() == 16
    assert np.array_equal(white[0], black[1])
    assert white[4].all() and not black[4].any()
    with pytest.raises(boardlab.BoardlabError):
        g.planes(5)
    # Both assideum armies see themselves at the bottom of the board.
    a = boardlab.Game("assideum")
    start = a.planes()
    a.play("a2-a3")
    assert np.array_equal(a.planes()[:14], start[:14])


def test_bots_choose_legal_moves_reproducibly():
    for name in boardlab.games():
        g = boardlab.Game(name, seed=4)
        a = g.analyze("mcts:iterations=200", seed=5)
        b = g.analyze("mcts:iterations=200", seed=5)
        assert a["move"] in g.legal_moves()
        assert (a["move"], a["pv"], a["nodes"]) == (b["move"], b["pv"], b["nodes"])
        assert 0.0 <= a["value"] <= 1.0 and a["seat"] == g.to_move
        assert g.best_move("alphabeta:depth=2") in g.legal_moves()
    with pytest.raises(boardlab.BotError, match="accepted"):
        boardlab.Game("opprimo").best_move("deep-thought")
    assert boardlab.parse_bot("MCTS:iterations=100") == "mcts:iterations=100"


def test_solver_values_and_moves():
    g = boardlab.Game("sight-reduction", position=SR_FULL)
    r = g.solve(distance=True, all_moves=True)
    assert r["result"] in ("win", "loss") and r["seat"] == 0
    assert r["plies"] % 2 == (1 if r["result"] == "win" else 0)
    assert set(r["moves"]) == set(g.legal_moves())
    winning = [m for m, v in r["moves"].items() if v["result"] == "win"]
    assert bool(winning) == (r["result"] == "win")
    # Without the distance the result is the same.
    quick = g.solve()
    assert quick["result"] == r["result"] and quick["plies"] is None
    with pytest.raises(boardlab.SolverError, match="budget"):
        g.solve(max_nodes=10)
    with pytest.raises(boardlab.SolverError, match="only sight-reduction"):
        boardlab.Game("opprimo").solve()
    with pytest.raises(boardlab.SolverError, match="set-up"):
        boardlab.Game("sight-reduction", "setup=fair").solve()


def test_solitaire_puzzles_are_solved():
    g = boardlab.Game("sight-reduction", {"mode": "solitaire"}, seed=4)
    r = g.solve(max_nodes=2_000_000)
    assert isinstance(r["solved"], bool) and r["nodes"] > 0
    if r["exhaustive"] or r["solved"]:
        for m in r["moves"]:
            g.play(m)
        assert g.is_over
        assert g.outcome["solved"] == r["solved"] and g.outcome["score"] == r["score"]
    with pytest.raises(boardlab.SolverError):
        g.solve(distance=True)
