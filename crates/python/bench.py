"""Speed of the boardlab Python binding: random playouts per second with one call per game
(``play_random_game``) and with one call per move from Python, PettingZoo environment steps
per second, and vectorised environment steps per second (``boardlab.vector.VectorEnv`` with a
random legal action per env from ``sample_actions``, on 1 thread and on ``--threads``), for
each game with its default options.

    python bench.py [--seconds S] [--games NAME ...] [--num-envs N] [--threads T] [--json]

Build the extension in release mode first (``maturin develop --release``): a debug build is
many times slower. Compare with the native figures of ``boardlab bench GAME``.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import boardlab


def timed(seconds: float, one) -> tuple[int, int, float]:
    """Runs ``one(i)`` (which returns the plies it played) until ``seconds`` have passed:
    returns (runs, plies, elapsed)."""
    runs = plies = 0
    start = time.perf_counter()
    while True:
        plies += one(runs)
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return runs, plies, elapsed


def per_game(name: str, seconds: float) -> dict:
    runs, plies, t = timed(seconds, lambda i: boardlab.play_random_game(name, seed=i)["plies"])
    return {"playouts_per_s": runs / t, "plies_per_s": plies / t}


def per_move(name: str, seconds: float) -> dict:
    rng = np.random.default_rng(0)

    def one(i: int) -> int:
        g = boardlab.Game(name, seed=i)
        n = 0
        while True:
            ids = g.legal_actions()
            if not ids:
                return n
            g.play_action(ids[int(rng.integers(len(ids)))])
            n += 1

    runs, plies, t = timed(seconds, one)
    return {"playouts_per_s": runs / t, "plies_per_s": plies / t}


def env_steps(name: str, seconds: float) -> dict:
    from boardlab.pettingzoo_env import env

    e = env(name)
    rng = np.random.default_rng(0)

    def one(i: int) -> int:
        e.reset(seed=i)
        n = 0
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            # A boolean view: np.flatnonzero is much faster on booleans than on int8.
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            e.step(int(legal[rng.integers(len(legal))]))
            n += 1
        return n

    runs, steps, t = timed(seconds, one)
    return {"episodes_per_s": runs / t, "steps_per_s": steps / t}


#: The most mask entries (bytes) a vectorised benchmark allocates: Obsidio 9x9 has 525,971 ids
#: per env, so it runs fewer envs.
MAX_MASK_BYTES = 1 << 28


def vector_steps(name: str, seconds: float, num_envs: int, threads: int) -> dict:
    from boardlab.vector import VectorEnv

    count = boardlab.Game(name).action_count
    n = max(1, min(num_envs, MAX_MASK_BYTES // count))
    env = VectorEnv(name, n, seed=0, num_threads=threads)
    env.reset()

    def one(i: int) -> int:
        env.step(env.sample_actions())
        return n

    calls, steps, t = timed(seconds, one)
    return {"num_envs": n, "threads": threads, "steps_per_s": steps / t}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--games", nargs="*", default=boardlab.games())
    parser.add_argument("--num-envs", type=int, default=4096, help="envs of the vector env")
    parser.add_argument("--threads", type=int, default=2, help="threads of the vector env")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    results = {}
    for name in args.games:
        results[name] = {
            "play_random_game": per_game(name, args.seconds),
            "per_move": per_move(name, args.seconds),
            "env": env_steps(name, args.seconds),
            "vector_1": vector_steps(name, args.seconds, args.num_envs, 1),
            "vector": vector_steps(name, args.seconds, args.num_envs, args.threads),
        }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        f"{'game':16} {'playouts/s (1 call/game)':>25} {'plies/s':>12} "
        f"{'playouts/s (1 call/move)':>25} {'plies/s':>12} {'env steps/s':>12} "
        f"{'vector, 1 thread':>17} {f'vector, {args.threads} threads':>17} {'vector/env':>10}"
    )
    for name, r in results.items():
        a, b, c, v1, v = (
            r[k] for k in ("play_random_game", "per_move", "env", "vector_1", "vector")
        )
        print(
            f"{name:16} {a['playouts_per_s']:>25,.0f} {a['plies_per_s']:>12,.0f} "
            f"{b['playouts_per_s']:>25,.1f} {b['plies_per_s']:>12,.0f} {c['steps_per_s']:>12,.0f} "
            f"{v1['steps_per_s']:>17,.0f} {v['steps_per_s']:>17,.0f} "
            f"{v['steps_per_s'] / c['steps_per_s']:>9.1f}x"
        )
    sizes = ", ".join(f"{k} {r['vector']['num_envs']}" for k, r in results.items())
    print(f"(vector envs per game: {sizes})")


if __name__ == "__main__":
    main()
