"""The learning example: a short run must learn to beat the random bot and the weak search bot
clearly more often than the untrained network does."""

import re
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "learn.py"


def test_a_short_run_learns():
    # 100 updates (about 37,000 training games, about 30 s on 2 cores). The update count, not
    # the time budget, ends the run and sets the learning rate, so the seed fixes the result.
    args = ["--iterations", "100", "--minutes", "5", "--seed", "0", "--print-every", "20"]
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), *args, "--eval-games", "200"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout

    # The learning curve: one line every 20 updates, more games each time, winning more often.
    curve = [
        (int(update), int(games), float(won))
        for update, games, won in re.findall(r"^\s*(\d+)\s+(\d+)\s+([\d.]+)%", out, re.M)
    ]
    assert [update for update, _, _ in curve] == [20, 40, 60, 80, 100], out
    assert all(a[1] < b[1] for a, b in zip(curve, curve[1:])), out
    assert curve[-1][2] > curve[0][2] + 15, out

    def rate(label, bot):
        """The share of 200 games won, from a line like
        `trained   vs random   won  172 of 200 =  86.0%  (95% interval 80.5-90.1%)`."""
        line = rf"^{label}\s+vs {re.escape(bot)}\s+won\s+(\d+) of 200 = .*%\s+\(95% interval .*%\)$"
        found = re.search(line, out, re.M)
        assert found, out
        return int(found.group(1)) / 200

    before, after = rate("untrained", "random"), rate("trained", "random")
    # The untrained network plays about as well as random moves (97 of 200 in this run); after
    # training it wins 172 of 200.
    assert 0.35 <= before <= 0.65, out
    assert after >= 0.75 and after >= before + 0.2, out
    # Against level:2 (plain MCTS, 2 iterations): 70 of 200 untrained, 171 trained.
    assert rate("trained", "level:2") >= rate("untrained", "level:2") + 0.15, out
