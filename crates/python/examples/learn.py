"""Learn to play Sight Reduction from the board planes, with NumPy alone.

The agent is a small neural network that reads the position as boardlab gives it, the 8 x 4
planes seen from the side to move (those that differ between positions: its own pieces, the
other colour's pieces, whether it plays White), and chooses a removal with a softmax over the
legal action ids. Each of its two layers looks along the lines of the board: for every square
it combines what stands on the square's whole rank and whole file (one set of weights for all
ranks, one for all files); a linear layer over the last layer's features gives a score for
every action id and an estimate of the result. Nothing about the rules is written into it: it
learns what matters from the results of its games, +1 for a win and -1 for a loss.

It is trained with PPO (proximal policy optimisation) against the `random` bot, in 256 games
stepped together by `boardlab.vector.BotOpponentVectorEnv`, as White in half of them and as
Black in the other half. While it trains it prints its learning curve: the games played, the
share of the games since the last line that it won (its moves sampled from the policy), the
entropy of its choices and the seconds elapsed. At the end it plays its most likely move in
every position and reports its win rate, with a Wilson 95% interval, against `random` and
against a weak search bot, `level:2` (plain MCTS with 2 iterations; `level:1` is `random`),
each seat in half of the games. The untrained network is measured the same way first.

Run it from the repository root, with the package built into the Python environment (it needs
NumPy, and Gymnasium for `BotOpponentVectorEnv`; no deep-learning library):

    python crates/python/examples/learn.py
    python crates/python/examples/learn.py --minutes 2 --seed 3 --eval-games 1000

What to expect with the default settings on a 2-core machine: training takes the 4 minutes
it is given (750 to 850 updates of 4,096 moves, 270,000 to 310,000 games, depending on how
busy the machine is) and the evaluations a second more. With seed 0 the untrained network won
97 of 200 games against `random` and 70 of 200 against `level:2`. The learning curve passes
85% within the first minute and ends near 95%. The trained network then won 187 of 200
against `random` (93.5%, 95% interval 89.2-96.2%) and 176 of 200 against `level:2` (88.0%).
With `--seed 2 --eval-games 1000` it won 95.6% (94.1-96.7%) against `random` and 92.3%
(90.5-93.8%) against `level:2`, where the untrained network won 47.7% and 35.1%.

With `--iterations N` training stops after N updates and the learning rate follows the
updates, so a seed always gives the same run; with the time budget alone the number of
updates depends on the machine. NumPy is limited to one thread: its matrices here are small.
"""

from __future__ import annotations

import argparse
import math
import os
import time

# One BLAS thread: the matrices here are small, so a second thread gains little, and it slows
# everything down many times over when the cores are busy with other work.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402 (after the thread settings, which NumPy reads on import)

from boardlab.vector import BotOpponentVectorEnv  # noqa: E402

GAME = "sight-reduction"


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


class Network:
    """Layers along the ranks and files of the board, then linear policy and value heads.

    The input is the planes numbered in `planes`, one feature per plane on every square of the
    `board` (height, width). A layer maps the features of every square to `channels` new ones:
    each rank's squares together through one matrix shared by all ranks, each file's squares
    together through one matrix shared by all files; the two are added to a bias per square and
    channel and go through a ReLU."""

    def __init__(self, planes, board, channels, layers, actions, rng: np.random.Generator):
        self.planes, (self.height, self.width) = planes, board
        h, w, c_in = self.height, self.width, len(planes)
        p = {}
        for i in range(layers):
            scale = math.sqrt(2 / ((h + w) * c_in))
            p[f"rank{i}"] = rng.normal(0, scale, (w * c_in, w * channels)).astype(np.float32)
            p[f"file{i}"] = rng.normal(0, scale, (h * c_in, h * channels)).astype(np.float32)
            p[f"bias{i}"] = np.zeros((h, w, channels), np.float32)
            c_in = channels
        features = h * w * channels
        # Small policy weights: the untrained network chooses almost uniformly.
        p["policy"] = rng.normal(0, 0.01 / math.sqrt(features), (features, actions))
        p["policy_bias"] = np.zeros(actions)
        p["value"] = rng.normal(0, 1 / math.sqrt(features), features)
        p["value_bias"] = np.zeros(1)
        self.layers = layers
        self.params = {k: v.astype(np.float32) for k, v in p.items()}

    def forward(self, planes: np.ndarray, cols: np.ndarray):
        """The logits of the action ids `cols` and the values of a batch of planes, and what
        `backward` needs."""
        p, h, w = self.params, self.height, self.width
        n = len(planes)
        a = planes[:, self.planes].transpose(0, 2, 3, 1)
        acts = [a]
        for i in range(self.layers):
            c = a.shape[3]
            ranks = (a.reshape(n * h, w * c) @ p[f"rank{i}"]).reshape(n, h, w, -1)
            files = a.transpose(0, 2, 1, 3).reshape(n * w, h * c) @ p[f"file{i}"]
            files = files.reshape(n, w, h, -1).transpose(0, 2, 1, 3)
            a = np.maximum(ranks + files + p[f"bias{i}"], 0)
            acts.append(a)
        f = a.reshape(n, -1)
        logits = f @ p["policy"][:, cols] + p["policy_bias"][cols]
        value = f @ p["value"] + p["value_bias"]
        return logits, value, (acts, cols)

    def backward(self, cache, dlogits: np.ndarray, dvalue: np.ndarray) -> dict:
        """The gradients of the parameters, given those of the logits and values; the policy
        head's only for the columns `cols` of the forward pass."""
        acts, cols = cache
        p, h, w = self.params, self.height, self.width
        n = len(dvalue)
        f = acts[-1].reshape(n, -1)
        grads = {
            "policy": f.T @ dlogits,
            "policy_bias": dlogits.sum(0),
            "value": f.T @ dvalue,
            "value_bias": dvalue.sum(keepdims=True),
        }
        da = dlogits @ p["policy"][:, cols].T + np.outer(dvalue, p["value"])
        da = da.reshape(acts[-1].shape)
        for i in reversed(range(self.layers)):
            dz = da * (acts[i + 1] > 0)
            a = acts[i]
            c, co = a.shape[3], dz.shape[3]
            grads[f"bias{i}"] = dz.sum(0)
            dz_ranks = dz.reshape(n * h, w * co)
            grads[f"rank{i}"] = a.reshape(n * h, w * c).T @ dz_ranks
            dz_files = dz.transpose(0, 2, 1, 3).reshape(n * w, h * co)
            grads[f"file{i}"] = a.transpose(0, 2, 1, 3).reshape(n * w, h * c).T @ dz_files
            if i > 0:
                da = (dz_ranks @ p[f"rank{i}"].T).reshape(n, h, w, c)
                da += (dz_files @ p[f"file{i}"].T).reshape(n, w, h, c).transpose(0, 2, 1, 3)
        return grads


class Adam:
    """Adam with the gradient clipped to a global norm. The policy head is updated only in the
    columns of the action ids that were legal in the batch (a sparse update: the other ids
    never get a gradient)."""

    def __init__(self, params: dict, lr: float, max_norm: float = 0.5):
        self.params, self.lr, self.max_norm = params, lr, max_norm
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, grads: dict, cols: np.ndarray) -> None:
        norm = math.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        scale = min(1.0, self.max_norm / (norm + 1e-8))
        self.t += 1
        b1, b2 = 0.9, 0.999
        lr = self.lr * math.sqrt(1 - b2**self.t) / (1 - b1**self.t)
        for k, g in grads.items():
            part = {"policy": (slice(None), cols), "policy_bias": cols}.get(k, ...)
            g = scale * g
            m = self.m[k][part] = b1 * self.m[k][part] + (1 - b1) * g
            v = self.v[k][part] = b2 * self.v[k][part] + (1 - b2) * g * g
            self.params[k][part] -= lr * m / (np.sqrt(v) + 1e-8)


def masked_log_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Log-probabilities over the legal entries of each row, -inf elsewhere."""
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def policy(net: Network, obs: dict):
    """Log-probabilities over the ids `cols` that are legal somewhere in the batch, the values,
    and `cols`."""
    mask = obs["action_mask"].astype(bool)
    cols = np.flatnonzero(mask.any(0))
    logits, value, _ = net.forward(obs["observation"], cols)
    return masked_log_softmax(logits, mask[:, cols]), value, cols


def evaluate(net: Network, bot: str, games: int, seed: int, threads: int) -> int:
    """The games the network wins of `games` against `bot`, playing its most likely move, one
    game per environment: the first seat in even environments and the second in odd ones."""
    env = BotOpponentVectorEnv(
        GAME, num_envs=games, bot=bot, seat="alternate", seed=seed, num_threads=threads
    )
    obs, _ = env.reset(seed=seed)
    result = np.zeros(games)
    finished = np.zeros(games, bool)
    while not finished.all():
        logp, _, cols = policy(net, obs)
        obs, rewards, terminated, truncated, _ = env.step(cols[logp.argmax(1)])
        done = (terminated | truncated) & ~finished
        result[done] = rewards[done]
        finished |= done
    return int((result > 0).sum())


def ppo_update(net: Network, opt: Adam, batch, args, rng: np.random.Generator) -> float:
    """Epochs of clipped PPO over one batch of moves; returns the mean entropy of the policy."""
    planes, mask, actions, old_logp, returns, adv = batch
    cols = np.flatnonzero(mask.any(0))
    mask = mask[:, cols]
    chosen = np.searchsorted(cols, actions)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    entropies = []
    for _ in range(args.epochs):
        order = rng.permutation(len(planes))
        for start in range(0, len(planes), args.minibatch):
            idx = order[start : start + args.minibatch]
            rows = np.arange(len(idx))
            logits, value, cache = net.forward(planes[idx], cols)
            logp = masked_log_softmax(logits, mask[idx])
            prob = np.exp(logp)
            ratio = np.exp(logp[rows, chosen[idx]] - old_logp[idx])
            a = adv[idx]
            # The clipped objective has no gradient where the ratio left the trust region.
            kept = ~(((a > 0) & (ratio > 1 + args.clip)) | ((a < 0) & (ratio < 1 - args.clip)))
            dratio = np.where(kept, -a * ratio, 0.0)
            dlogits = -prob * dratio[:, None]
            dlogits[rows, chosen[idx]] += dratio
            plogp = prob * np.where(mask[idx], logp, 0.0)
            entropy = -plogp.sum(1)
            dlogits += args.entropy * (plogp + prob * entropy[:, None])
            dvalue = 2 * args.value_coef * (value - returns[idx])
            grads = net.backward(cache, (dlogits / len(idx)).astype(np.float32), dvalue / len(idx))
            opt.step(grads, cols)
            entropies.append(entropy.mean())
    return float(np.mean(entropies))


def train(net: Network, args) -> None:
    rng = np.random.default_rng(args.seed)
    opt = Adam(net.params, args.lr)
    env = BotOpponentVectorEnv(
        GAME,
        num_envs=args.num_envs,
        bot="random",
        seat="alternate",
        seed=args.seed,
        num_threads=args.threads,
    )
    n, steps = args.num_envs, args.steps
    obs, _ = env.reset(seed=args.seed)
    planes = np.zeros((steps, n, *obs["observation"].shape[1:]), np.float32)
    masks = np.zeros((steps, *obs["action_mask"].shape), bool)
    actions = np.zeros((steps, n), np.int64)
    logps = np.zeros((steps, n), np.float32)
    values = np.zeros((steps + 1, n), np.float32)
    rewards = np.zeros((steps, n), np.float32)
    dones = np.zeros((steps, n), bool)
    games = window_games = window_wins = iteration = 0
    start, budget = time.perf_counter(), 60 * args.minutes
    print(f"{'update':>6} {'games':>8} {'won vs random':>14} {'entropy':>8} {'seconds':>8}")
    while iteration < (args.iterations or math.inf) and time.perf_counter() - start < budget:
        for t in range(steps):
            # The environment overwrites its arrays in the next step: copy them.
            planes[t] = obs["observation"]
            masks[t] = obs["action_mask"]
            logp, values[t], cols = policy(net, obs)
            pick = (logp + rng.gumbel(size=logp.shape)).argmax(1)
            actions[t], logps[t] = cols[pick], logp[np.arange(n), pick]
            obs, rewards[t], terminated, truncated, _ = env.step(actions[t])
            dones[t] = terminated | truncated
            window_games += int(dones[t].sum())
            window_wins += int((rewards[t] > 0).sum())
        values[steps] = policy(net, obs)[1]
        # Generalised advantage estimation without discount: only the result counts. Auto-reset
        # is same-step, so after a finished game the next value belongs to a new game.
        adv = np.zeros((steps, n), np.float32)
        running = np.zeros(n, np.float32)
        for t in reversed(range(steps)):
            live = 1.0 - dones[t]
            delta = rewards[t] + live * values[t + 1] - values[t]
            running = delta + args.gae_lambda * live * running
            adv[t] = running
        batch = (
            planes.reshape(steps * n, *planes.shape[2:]),
            masks.reshape(steps * n, -1),
            actions.reshape(-1),
            logps.reshape(-1),
            (adv + values[:steps]).reshape(-1),
            adv.reshape(-1),
        )
        # The learning rate falls linearly to a tenth of its start over the budget: over the
        # updates when their number is given (then a seed always gives the same run), else
        # over the time.
        if args.iterations:
            progress = iteration / args.iterations
        else:
            progress = (time.perf_counter() - start) / budget
        opt.lr = args.lr * (1 - 0.9 * min(progress, 1))
        entropy = ppo_update(net, opt, batch, args, rng)
        iteration += 1
        if iteration % args.print_every == 0:
            games += window_games
            rate = 100 * window_wins / max(window_games, 1)
            elapsed = time.perf_counter() - start
            print(f"{iteration:>6} {games:>8} {rate:>13.1f}% {entropy:>8.3f} {elapsed:>8.1f}")
            window_games = window_wins = 0
    print(f"trained: {iteration} updates in {time.perf_counter() - start:.1f} s")


def report(label: str, net: Network, args) -> None:
    for bot in ("random", args.bot):
        wins = evaluate(net, bot, args.eval_games, args.seed + 1, args.threads)
        low, high = wilson(wins, args.eval_games)
        rate = 100 * wins / args.eval_games
        print(
            f"{label} vs {bot:<8} won {wins:>4} of {args.eval_games} = {rate:5.1f}%"
            f"  (95% interval {100 * low:.1f}-{100 * high:.1f}%)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=4.0, help="training time budget")
    parser.add_argument(
        "--iterations", type=int, help="train for this many updates (within --minutes)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--num-envs", type=int, default=256, help="games played side by side")
    parser.add_argument("--threads", type=int, default=1, help="threads stepping the games")
    parser.add_argument("--eval-games", type=int, default=200, help="games per evaluation")
    parser.add_argument("--bot", default="level:2", help="the bot evaluated against besides random")
    parser.add_argument("--channels", type=int, default=16, help="features per square and layer")
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--steps", type=int, default=16, help="moves per environment and update")
    parser.add_argument("--epochs", type=int, default=4, help="passes over each batch")
    parser.add_argument("--minibatch", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=2e-3, help="Adam's learning rate at the start")
    parser.add_argument("--clip", type=float, default=0.2, help="PPO's clipping range")
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--value-coef", type=float, default=0.5)
    parser.add_argument("--gae-lambda", type=float, default=0.8)
    parser.add_argument("--print-every", type=int, default=50, help="updates per line")
    args = parser.parse_args()

    # Planes that are the same in every position, here those of the set-up phases and the one
    # that says the agent is to move, tell the network nothing: it reads the others.
    env = BotOpponentVectorEnv(GAME, num_envs=64, seat="alternate", seed=args.seed)
    sample = env.reset(seed=args.seed)[0]["observation"]
    planes = np.flatnonzero((sample != sample[:1]).any(axis=(0, 2, 3)))
    board, actions = sample.shape[2:], env.single_action_space.n
    rng = np.random.default_rng(args.seed)
    net = Network(planes, board, args.channels, args.layers, actions, rng)
    report("untrained", net, args)
    train(net, args)
    report("trained  ", net, args)


if __name__ == "__main__":
    main()
