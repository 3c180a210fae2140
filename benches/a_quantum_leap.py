"""A Quantum Leap benchmarks: the exact best turn, random playouts, and policies played out.

    python benches/a_quantum_leap.py [--full-hands 1000] [--positions 1000] [--timeout 0.5]
                                     [--seconds 3] [--games 10000] [--best-games 10000]
                                     [--turn-nodes 20000] [--threads N] [--skip WHAT]

1. ``best_turn`` time over ``--full-hands`` random stage-two positions where the mover holds a
   full 13-card hand (two players, the second stock just taken up), and over ``--positions``
   random stage-two positions of 2, 3 and 4 players (a random decision point of a random
   game); each search within ``--timeout`` seconds (an unsolved one counts as the timeout):
   median, p95, max, unsolved. Target: median <= 10 ms on full hands.
2. Random playouts, Rust batch (one thread) against the pure-Python reference: games/s.
3. Policies: ``--games`` games each for 2, 3 and 4 players played by ``random`` and
   ``greedy``, ``--best-games`` by ``best_turn`` (each turn's search within ``--turn-nodes``
   nodes, else played greedily: the share of such turns is printed): mean score and win
   share per seat (seat 0 deals; a tie shares the win).

``--skip`` takes a comma-separated list of ``turn``, ``playouts``, ``policy``.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys

import numpy as np

import quanta
from quanta import SearchLimitError
from quanta import a_quantum_leap as aql
from quanta.reference import a_quantum_leap as reference

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _common import batch_playouts, play_out, print_against_reference, timed  # noqa: E402


def positions(players: int, count: int, rng: random.Random, full_hand: bool) -> list:
    """Stage-two decision points of random games: with ``full_hand`` the start of a turn with
    13 cards in hand, else one decision point drawn uniformly from each game's."""
    g = quanta.game("a_quantum_leap", players=players)
    out = []
    while len(out) < count:
        s, seen = g.new_state(), []
        while not s.is_terminal:
            if s.is_chance:
                actions, weights = zip(*s.chance_outcomes())
                s = s.play(rng.choices(actions, weights)[0])
                continue
            turn = s.notation().split(" ")[4]
            if turn.startswith("play"):
                if not full_hand:
                    seen.append(s)
                elif turn.endswith(":0") and len(aql.hand(s, s.current_player)) == 13:
                    seen.append(s)
                    break
            s = s.play(rng.choice(s.legal_actions()))
        if seen:
            out.append(rng.choice(seen))
    return out


def time_turns(states: list, timeout: float) -> tuple[list, int, list]:
    times, nodes, unsolved = [], [], 0
    for s in states:
        try:
            r = aql.best_turn(s, timeout=timeout)
            times.append(r.seconds)
            nodes.append(r.nodes)
        except SearchLimitError as e:
            times.append(timeout)
            nodes.append(e.nodes)
            unsolved += 1
    return times, unsolved, nodes


def turn_table(full_hands: int, count: int, timeout: float) -> None:
    rng = random.Random(13)
    print(f"## best_turn time ({timeout:g} s limit each; unsolved count as the limit)\n")
    print("| positions | n | median | p95 | max | unsolved | median nodes |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    cases = [("2 players, full 13-card hand", positions(2, full_hands, rng, True))]
    cases += [(f"{p} players, any stage-two decision", positions(p, count, rng, False))
              for p in (2, 3, 4)]
    for label, states in cases:
        if not states:
            continue
        times, unsolved, nodes = time_turns(states, timeout)
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"| {label} | {len(times)} | {1000 * statistics.median(times):.2f} ms "
              f"| {1000 * p95:.1f} ms | {1000 * times[-1]:.0f} ms | {unsolved} "
              f"| {statistics.median(nodes):,.0f} |")
    print()


def playouts_table(seconds: float) -> None:
    print("## Random playouts (one thread)\n")
    g = quanta.game("a_quantum_leap", players=2)
    rust_games, _, rust_time = timed(batch_playouts(g, 20_000), seconds)
    rg = reference.game(players=2)
    rng = random.Random(1)
    ref_games, _, ref_time = timed(lambda: (1, play_out(rg.new_state(), rng)), seconds)
    print_against_reference("games/s (2 players)", "Rust batch", rust_games / rust_time,
                            ref_games / ref_time)


def policy_table(games: int, best_games: int, turn_nodes: int, threads) -> None:
    print(f"## Policies: mean score and win share per seat (seat 0 deals)\n")
    print("| players | policy | games | mean score by seat | win share by seat "
          "| turns past the node limit |")
    print("|---:|---|---:|---|---|---:|")
    for players in (2, 3, 4):
        for policy, n in (("random", games), ("greedy", games), ("best_turn", best_games)):
            if n == 0:
                continue
            r = aql.play_batch(policy, players, n, seed=players, threads=threads,
                               max_nodes=turn_nodes if policy == "best_turn" else None)
            scores = r["scores"].astype(float)
            top = scores.max(axis=1, keepdims=True)
            winners = scores == top
            share = (winners / winners.sum(axis=1, keepdims=True)).mean(axis=0)
            means = " / ".join(f"{m:.1f}" for m in scores.mean(axis=0))
            wins = " / ".join(f"{100 * w:.1f}%" for w in share)
            past = "-"
            if policy == "best_turn":
                past = f"{100 * r['fallbacks'].sum() / max(1, r['turns'].sum()):.1f}%"
            print(f"| {players} | {policy} | {n:,} | {means} | {wins} | {past} |")
    print()


def variants_table(games: int, threads: int | None) -> None:
    """Random play against greedy play in the two-pack and partnership games: the arena,
    seats (partners: sides) rotated game by game, greedy's win share with its 95 % interval."""
    from quanta import bots

    print("| game | greedy wins [95 %] | draws | mean return random / greedy |")
    print("|---|---:|---:|---:|")
    for label, options in [("4 players, 2 packs", dict(players=4, packs=2)),
                           ("3 players, 2 packs", dict(players=3, packs=2)),
                           ("4 players, partners", dict(players=4, teams="partners")),
                           ("4 players, partners, 2 packs",
                            dict(players=4, packs=2, teams="partners"))]:
        game = quanta.game("a_quantum_leap", **options)
        r = quanta.arena(game, [bots.Random(), bots.Greedy()], games, seed=1, threads=threads)
        rnd, greedy = r.summary
        low, high = greedy.win_interval
        print(f"| {label} | {greedy.wins / greedy.decided:.1%} [{low:.1%}, {high:.1%}] | "
              f"{greedy.draws / greedy.decided:.1%} | {rnd.mean_return:.1f} / "
              f"{greedy.mean_return:.1f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full-hands", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--timeout", type=float, default=0.5)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--best-games", type=int, default=10_000)
    parser.add_argument("--turn-nodes", type=int, default=20_000)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--skip", default="")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    np.set_printoptions(precision=1)
    if "turn" not in skip:
        turn_table(args.full_hands, args.positions, args.timeout)
    if "playouts" not in skip:
        playouts_table(args.seconds)
    if "policy" not in skip:
        policy_table(args.games, args.best_games, args.turn_nodes, args.threads)
    if "variants" not in skip:
        variants_table(args.games, args.threads)


if __name__ == "__main__":
    main()
