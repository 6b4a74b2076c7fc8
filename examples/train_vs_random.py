"""Train a small numpy policy against ``holdem.RandomAgent`` (heads-up no-limit, 100 big blinds).

The policy is a one-hidden-layer network over the batched engine's observation row
(:class:`holdem.vector.ObservationSpec`), a softmax over the legal columns of the ``"default"``
action layout (fold, check/call, half pot, pot, min raise, all-in), trained by REINFORCE with a
learned baseline (the network's value head) and Adam, in numpy alone.

The games run on :class:`holdem.vector.VectorGame` (many tables stepped together, exact
actions through ``step_exact``). The learner sits in seat 0 of every table; seat 1 is played
by a real :class:`holdem.RandomAgent` per table, shown the :class:`holdem.Observation` of its
seat (``Observation.from_state(env.hand_state(i))``) and answering as it does at a
:class:`holdem.Table`: uniform over fold / check-call / bet-raise, then a uniform size between
the minimum and the maximum. (``holdem.rl.gymnasium.HoldemEnv`` takes opponents that answer
with action columns, which cannot express RandomAgent's sizes.)

At each checkpoint the policy plays held-out deals (another seed) against fresh RandomAgents;
its win rate in big blinds per 100 hands, with a 95% interval, goes into an SVG chart.
Everything is seeded: ``--iterations`` gives the same numbers on every run (``--minutes``
stops on the clock instead).

Run: ``python examples/train_vs_random.py --out learning_curve.svg`` (about a minute of one
core; ``--quick``: a few seconds). Needs numpy: ``pip install "holdem-engine[numpy]"`` (in a
source checkout ``pip install ".[numpy]"``).
"""

from __future__ import annotations

import argparse
import math
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # numpy on one core (set before it is imported)
import numpy as np  # noqa: E402

from holdem import ActionType, Game, Observation, RandomAgent, charts  # noqa: E402
from holdem.vector import VectorGame  # noqa: E402

GAME = Game(big_blind=2)
STACK = 200  # 100 big blinds
LEARNER = 0  # the learner's seat at every table (the button moves each hand)
_Z95 = 1.959963984540054
_RAISES = (ActionType.BET, ActionType.RAISE)


@dataclass(frozen=True)
class Settings:
    iterations: int | None = 300  # policy updates (None: as many as --minutes allows)
    tables: int = 256  # tables stepped together while training
    steps: int = 24  # steps of every table per update
    hidden: int = 64
    lr: float = 3e-3
    entropy: float = 0.01
    checkpoints: int = 15  # evaluations, evenly spread (plus one before training)
    eval_tables: int = 500
    eval_hands: int = 20  # hands per evaluation table


QUICK = Settings(iterations=60, tables=128, checkpoints=3, eval_tables=250, eval_hands=16)


# --------------------------------------------------------------------------- the opponents


class Opponents:
    """One holdem agent per table (here :class:`holdem.RandomAgent`), for the seat to act."""

    def __init__(self, tables: int, seed: int) -> None:
        seeds = np.random.SeedSequence(seed).generate_state(tables, dtype=np.uint64)
        self.agents = [RandomAgent(seed=int(s)) for s in seeds]

    def act(self, env: VectorGame, tables: np.ndarray, kinds: np.ndarray,
            amounts: np.ndarray) -> None:
        """Fill ``kinds`` / ``amounts`` (the exact view) for ``tables`` from their agents."""
        played = env.hands_played()
        for i in tables.tolist():
            state = env.hand_state(i)
            state.apply(self.agents[i].act(Observation.from_state(state, int(played[i]))))
            _, _, kind, to, _, _ = state.raw_history()[-1]  # the action, checked and resolved
            if kind == ActionType.FOLD:
                kinds[i] = 0
            elif kind in _RAISES:
                kinds[i], amounts[i] = 2, to
            else:
                kinds[i] = 1


# --------------------------------------------------------------------------- the policy


class Policy:
    """A tanh hidden layer, then action logits (masked to the legal columns) and a value."""

    def __init__(self, inputs: int, actions: int, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.params = {
            "w1": rng.normal(0.0, 1.0 / math.sqrt(inputs), (inputs, hidden)),
            "b1": np.zeros(hidden),
            "wp": np.zeros((hidden, actions)),  # zero: the untrained policy is uniform
            "bp": np.zeros(actions),
            "wv": np.zeros((hidden, 1)),
            "bv": np.zeros(1),
        }
        self._m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self._v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self._t = 0

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, ...]:
        p = self.params
        h = np.tanh(x @ p["w1"] + p["b1"])
        logits = np.where(mask, h @ p["wp"] + p["bp"], -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        value = (h @ p["wv"] + p["bv"])[:, 0]
        return h, probs, value

    def sample(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        _, probs, _ = self.forward(x, mask)
        u = rng.random((len(x), 1))
        cols: np.ndarray = np.minimum((probs.cumsum(axis=1) < u).sum(axis=1),
                                      probs.shape[1] - 1)  # (rounding at the top end)
        return cols

    def update(self, x: np.ndarray, mask: np.ndarray, cols: np.ndarray, ret: np.ndarray,
               lr: float, entropy: float) -> None:
        """One REINFORCE step with the value head as baseline (returns scaled to ~1)."""
        p = self.params
        n = len(x)
        h, probs, value = self.forward(x, mask)
        adv = ret - value
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        onehot = np.zeros_like(probs)
        onehot[np.arange(n), cols] = 1.0
        logp = np.log(np.where(mask, probs, 1.0))
        ent = -(probs * logp).sum(axis=1, keepdims=True)
        # d(loss)/d(logits) of -adv*log p(a) - entropy*H + 0.5*(value - ret)^2, averaged
        g_logits = (probs - onehot) * adv[:, None] + entropy * probs * (logp + ent)
        g_logits = np.where(mask, g_logits, 0.0) / n
        g_value = (value - ret)[:, None] / n
        g_h = (g_logits @ p["wp"].T + g_value @ p["wv"].T) * (1.0 - h * h)
        grads = {"w1": x.T @ g_h, "b1": g_h.sum(0), "wp": h.T @ g_logits,
                 "bp": g_logits.sum(0), "wv": h.T @ g_value, "bv": g_value.sum(0)}
        self._t += 1
        for k, g in grads.items():  # Adam
            self._m[k] = 0.9 * self._m[k] + 0.1 * g
            self._v[k] = 0.999 * self._v[k] + 0.001 * g * g
            mh = self._m[k] / (1 - 0.9 ** self._t)
            vh = self._v[k] / (1 - 0.999 ** self._t)
            p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)


def input_scale(env: VectorGame) -> np.ndarray:
    """Per observation column: chip amounts (in big blinds) over the stack, the rest as is."""
    chips = ("stack", "bet", "committed", "pot", "to_call", "min_raise_to", "max_raise_to",
             "added")
    return np.array([0.01 if name.endswith(chips) else 1.0
                     for name in env.observation_spec.names])


# --------------------------------------------------------------------------- playing


class Match:
    """``tables`` heads-up tables: the learner in seat 0, a RandomAgent in seat 1."""

    def __init__(self, tables: int, seed: int) -> None:
        self.env = VectorGame(GAME, num_tables=tables, players=2, stacks=STACK, seed=seed,
                              actions="default")
        self.env.reset()
        self.opponents = Opponents(tables, seed + 1)
        # column -> kind of the exact view: 0 fold, 1 check/call, 2 bet/raise
        self.kind_of = np.array([{"fold": 0, "check_call": 1}.get(name, 2)
                                 for name in self.env.action_layout.names])
        self.scale = input_scale(self.env)
        self.kinds = np.zeros(tables, dtype=np.int64)
        self.amounts = np.zeros(tables, dtype=np.int64)

    def step(self, policy: Policy, rng: np.random.Generator,
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action on every table. Returns the learner's decisions (tables, inputs, masks,
        columns), then ``done`` and the learner's reward in big blinds per table."""
        env = self.env
        actor = env.current_player
        mine = np.flatnonzero(actor == LEARNER)
        theirs = np.flatnonzero(actor != LEARNER)
        x = env.observation[mine] * self.scale
        mask = env.legal_mask[mine].copy()
        cols = policy.sample(x, mask, rng)
        self.kinds[mine] = self.kind_of[cols]
        self.amounts[:] = 0
        raises = self.kind_of[cols] == 2
        for i, c in zip(mine[raises].tolist(), cols[raises].tolist(), strict=True):
            self.amounts[i] = env.raise_amounts(i)[c]  # the column's bet/raise total
        self.opponents.act(env, theirs, self.kinds, self.amounts)
        _, rewards, done = env.step_exact(self.kinds, self.amounts)
        return mine, x, mask, cols, done.copy(), rewards[:, LEARNER].astype(np.float64)


def evaluate(policy: Policy, settings: Settings, seed: int) -> tuple[float, float]:
    """The policy's win rate in bb/100 and its 95% half-interval over held-out deals:
    ``eval_hands`` hands on each of ``eval_tables`` tables (same deals every call)."""
    match = Match(settings.eval_tables, seed)
    rng = np.random.default_rng(seed + 2)
    won = np.zeros((settings.eval_tables, settings.eval_hands))
    count = np.zeros(settings.eval_tables, dtype=np.int64)
    while (count < settings.eval_hands).any():
        *_, done, reward = match.step(policy, rng)
        keep = np.flatnonzero(done & (count < settings.eval_hands))
        won[keep, count[keep]] = reward[keep]
        count[done] += 1
    per_hand = won.ravel()
    half = _Z95 * per_hand.std(ddof=1) / math.sqrt(per_hand.size)
    return 100 * per_hand.mean(), 100 * half


def train(settings: Settings, seed: int, minutes: float | None,
          log: bool = True) -> list[tuple[int, float, float]]:
    """Train; return (hands trained on, bb/100, 95% half-interval) at each checkpoint."""
    match = Match(settings.tables, seed)
    width = match.env.observation_spec.width
    policy = Policy(width, match.env.action_layout.size, settings.hidden, seed + 3)
    rng = np.random.default_rng(seed + 4)
    eval_seed = (seed + 1_000_003) % (1 << 64)  # held-out deals and opponents (a valid seed)
    curve: list[tuple[int, float, float]] = []
    hands = 0
    start = time.perf_counter()
    evaluating = 0.0  # seconds spent in evaluations (not counted by --minutes)
    # decisions waiting for their hand to end (carried over between updates)
    pend_t = np.zeros(0, dtype=np.int64)
    pend_x = np.zeros((0, width))
    pend_m = np.zeros((0, match.env.action_layout.size), dtype=bool)
    pend_c = np.zeros(0, dtype=np.int64)

    def checkpoint() -> None:
        nonlocal evaluating
        t = time.perf_counter()
        rate, half = evaluate(policy, settings, eval_seed)
        evaluating += time.perf_counter() - t
        curve.append((hands, rate, half))
        if log:
            print(f"{hands:>9,} hands  {time.perf_counter() - start:6.1f} s  "
                  f"{rate:+8.1f} bb/100 +/- {half:.1f}", flush=True)

    checkpoint()
    it, done_part, next_part = 0, 0.0, 1
    while done_part < 1.0:
        it += 1
        ts, xs, ms, cs = [pend_t], [pend_x], [pend_m], [pend_c]
        hand_of = [np.zeros(len(pend_t), dtype=np.int64)]  # which of the table's hands
        ended = np.zeros((settings.tables, settings.steps + 1))
        finished = np.zeros(settings.tables, dtype=np.int64)
        for _ in range(settings.steps):
            mine, x, mask, cols, done, reward = match.step(policy, rng)
            ts.append(mine)
            xs.append(x)
            ms.append(mask)
            cs.append(cols)
            hand_of.append(finished[mine])
            d = np.flatnonzero(done)
            ended[d, finished[d]] = reward[d]
            finished[d] += 1
        t, x, m, c, h = (np.concatenate(a) for a in (ts, xs, ms, cs, hand_of))
        complete = h < finished[t]
        ret = ended[t, h] / 100.0  # in stacks
        policy.update(x[complete], m[complete], c[complete], ret[complete], settings.lr,
                      settings.entropy)
        left = ~complete
        pend_t, pend_x, pend_m, pend_c = t[left], x[left], m[left], c[left]
        hands += int(finished.sum())
        # the part of the run done: of the updates, or of the minutes (whichever is first)
        done_part = it / settings.iterations if settings.iterations else 0.0
        if minutes is not None:
            training = time.perf_counter() - start - evaluating
            done_part = max(done_part, training / (60 * minutes))
        part = min(settings.checkpoints, math.floor(done_part * settings.checkpoints + 1e-9))
        if part >= next_part or done_part >= 1.0:
            checkpoint()
            next_part = part + 1
    return curve


def chart(curve: list[tuple[int, float, float]], eval_hands: int) -> str:
    """The learning curve as SVG text (drawn by :func:`holdem.charts.winnings_chart`)."""
    (_, r0, h0), (_, r1, h1) = curve[0], curve[-1]
    return charts.winnings_chart(
        {"learner": [(float(n), r) for n, r, _ in curve]},
        title="A numpy policy learning to beat RandomAgent (heads-up no-limit, 100 bb)",
        x_label=f"hands trained on (each point: {eval_hands:,} held-out hands)",
        y_label="bb/100 against RandomAgent",
        notes={"learner": f"{r0:+.0f} \u2192 {r1:+.0f} (\u00b1{max(h0, h1):.0f}, 95%)"})


def _positive(kind: type) -> Any:
    """An argparse type: a number of ``kind`` above 0."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:  # NaN too
            raise argparse.ArgumentTypeError(f"must be above 0, got {text}")
        if value == math.inf:  # a run that would never end
            raise argparse.ArgumentTypeError(f"must be finite, got {text}")
        return value
    return parse


def _seed(text: str) -> int:
    """An argparse type: a seed of VectorGame, a whole number in 0..2**64-1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value < 1 << 64:
        raise argparse.ArgumentTypeError(f"must be in 0..2**64-1, got {text}")
    return value


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=_seed, default=1,
                    help="seed of the whole run: deals, opponents, the policy's weights and "
                         "samples, 0..2**64-1 (default 1)")
    ap.add_argument("--iterations", type=_positive(int),
                    help="policy updates (default 300, --quick 60; with --minutes: no limit)")
    ap.add_argument("--minutes", type=_positive(float),
                    help="stop after this many minutes of training (evaluations not counted; "
                         "the result depends on the machine's speed)")
    ap.add_argument("--out", default="learning_curve.svg", help="the chart (SVG)")
    ap.add_argument("--quick", action="store_true", help="a short run (seconds)")
    args = ap.parse_args(argv)
    out = Path(args.out)  # checked now, not when the chart is written after the training
    if out.is_dir():
        ap.error(f"argument --out: is a directory: {args.out!r}")
    if not out.parent.is_dir():
        ap.error(f"argument --out: no such directory: {str(out.parent)!r}")
    settings = QUICK if args.quick else Settings()
    if args.iterations is not None or args.minutes is not None:
        settings = replace(settings, iterations=args.iterations)
    curve = train(settings, args.seed, args.minutes)
    hands = settings.eval_tables * settings.eval_hands
    out.write_text(chart(curve, hands))
    print(f"initial: {curve[0][1]:+.1f} bb/100 +/- {curve[0][2]:.1f}")
    print(f"final: {curve[-1][1]:+.1f} bb/100 +/- {curve[-1][2]:.1f}")
    print(f"chart: {args.out}")


if __name__ == "__main__":
    main()
