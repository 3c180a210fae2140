"""The ``quanta`` command: ``analyze``, ``job``, ``solve`` and ``play``.

Every bad argument is one line on stderr, ``Error: ...``, and exit status 2 (a position of
the game with another option names the ``-o`` to add); a solve past its limits is one line
and status 1; Ctrl-C is status 130; the end of the input ends ``play`` with status 0.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import random
import re
import sys
import time

import click

import quanta
from quanta.jobs import CHECKPOINT, KINDS, TABLES


class _Quanta(click.Group):
    """click's group, its errors one line each (no usage block, no traceback)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as e:
            click.echo(f"Error: {e.format_message()}", err=True)
            sys.exit(e.exit_code)
        except (click.Abort, KeyboardInterrupt):
            click.echo("Aborted.", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


class _Failed(click.ClickException):
    """A command that could not finish (a solve past its limits): one line, status 1."""

    exit_code = 1


@click.group(cls=_Quanta, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(quanta.__version__, prog_name="quanta")
def main() -> None:
    """Rules engines, batch simulation and solvers for the quanta games."""


class _Integer(click.IntRange):
    """An integer from ``low`` to ``high``; anything else is a one-line usage error (exit 2)
    that says what is expected, e.g. "must be an integer from 1 to 1024, not 0"."""

    name = "integer"

    def __init__(self, low: int, high: int, high_text: str | None = None) -> None:
        super().__init__(low, high)
        self.expected = f"an integer from {low} to {high_text or high}"

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(f"must be {self.expected}, not {value}", param, ctx)

    def get_metavar(self, *args, **kwargs) -> str:
        return "INTEGER"


@main.command()
@click.option(
    "--games",
    "-n",
    type=_Integer(1, 2**40, "2**40"),
    default=100_000,
    show_default=True,
    help="Random games per game.",
)
@click.option(
    "--seed",
    type=_Integer(0, 2**64 - 1, "2**64-1"),
    default=0,
    show_default=True,
    help="Seed of the random games.",
)
@click.option(
    "--threads",
    type=_Integer(1, 1024),
    default=None,
    help="Worker threads [default: all cores].",
)
@click.option(
    "--game",
    "game_options",
    multiple=True,
    type=click.Choice(quanta.GAMES),
    help="Analyse this game too (repeatable; the same as naming it as an argument).",
)
@click.option(
    "--solves",
    type=_Integer(0, 10**6),
    default=100,
    show_default=True,
    help="Late positions of random games solved per game with a solver (0: none).",
)
@click.option(
    "--solve-timeout",
    type=click.FloatRange(min=0),
    default=1.0,
    show_default=True,
    help="Seconds per solve.",
)
@click.option(
    "--solve-max-nodes",
    type=_Integer(0, 2**63 - 1, "2**63-1"),
    default=None,
    help="Positions searched per solve [default: no limit].",
)
@click.option(
    "--bot-games",
    type=_Integer(0, 10**6),
    default=20,
    show_default=True,
    help="Games of MCTS(iterations=100) against a random player per game (0: none).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="The figures as JSON, for machines.")
@click.argument("names", nargs=-1, type=click.Choice(quanta.GAMES))
def analyze(games: int, seed: int, threads: int | None, game_options: tuple[str, ...],
            solves: int, solve_timeout: float, solve_max_nodes: int | None, bot_games: int,
            quiet: bool, as_json: bool, names: tuple[str, ...]) -> None:
    """Random play of every game (or of the GAMEs named): lengths, results and speed; then
    each solver on late positions of random games: how many it answers exactly, how many as
    an estimate, how many it leaves undecided within the limits (of those, how many by the
    time limit), how fast, their mean value and what the value means; then MCTS against a
    random player (quanta.arena): its win, draw and loss shares and both mean returns."""
    from quanta import analysis
    from quanta.solvers import SOLVERS

    chosen = list(dict.fromkeys(names + game_options)) or list(quanta.GAMES)
    progress = not (quiet or as_json)
    rows = [analysis.playout_figures(quanta.game(name), games, seed=seed, threads=threads,
                                     progress=progress) for name in chosen]
    limits = {"timeout": solve_timeout, "max_nodes": solve_max_nodes}
    solved = [analysis.solver_figures(name, solves, seed=seed, limits=limits, threads=threads,
                                      progress=progress)
              for name in chosen if solves and name in SOLVERS]
    matched = [analysis.bot_figures(quanta.game(name), bot_games, seed=seed, threads=threads)
               for name in chosen if bot_games]
    if as_json:
        click.echo(json.dumps({"playouts": rows, "solvers": solved, "bots": matched},
                              indent=1))
        return
    click.echo(_table([_summary(r) for r in rows]))
    if solved:
        click.echo("")
        click.echo(_table([_solver_summary(r) for r in solved]))
        click.echo(_value_notes(solved))
    if matched:
        click.echo("")
        click.echo(_table([_bot_summary(r) for r in matched]))


def _bot_summary(f: dict) -> dict:
    if f["wins"] is None:  # one player: each game had one bot alone, no one to beat
        wins = draws = losses = "—"
    else:
        low, high = f["wins_interval"]
        wins = f"{100 * f['wins']:.0f}% [{100 * low:.0f}-{100 * high:.0f}%]"
        draws, losses = f"{100 * f['draws']:.0f}%", f"{100 * f['losses']:.0f}%"
    return {
        "bot vs random": f"{f['game']}: {f['bot']}",
        "games": f["games"],
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "mean returns": " / ".join(f"{r:+.3f}" for r in f["mean_returns"]),
    }


def _solver_summary(f: dict) -> dict:
    return {
        "solver": f["game"],
        "positions": f"{f['positions']} ({f['timeout']:g} s each)",
        "exact": f["exact"],
        "estimates": f["estimates"],
        "undecided": f"{f['undecided']} ({f['undecided_over_time']} over time)",
        "median": f"{1000 * f['median_seconds']:.1f} ms",
        "max": f"{f['max_seconds']:.3f} s",
        "mean value": "-" if f["mean_value"] is None else f"{f['mean_value']:.3f}",
    }


def _value_notes(solved: list[dict]) -> str:
    """What each solver's value means, under its table."""
    lines = ["value (mean over the exact answers and estimates, none over the undecided):"]
    lines += [f"  {f['game']}: {f['value']} ({f['solver']})" for f in solved]
    lines.append("  estimates: a value over the decided samples only; undecided: no value "
                 "within the limits")
    return "\n".join(lines)


def _summary(f: dict) -> dict:
    """The figures as the table shows them."""
    return {
        "game": f["game"],
        "games": f["games"],
        "mean plies": f"{f['mean_plies']:.2f}",
        "wins": " / ".join(f"{100 * w:.1f}%" for w in f["wins"]),
        "draws": f"{100 * f['draws']:.1f}%",
        "mean returns": " / ".join(f"{r:+.3f}" for r in f["mean_returns"]),
        "games/s": "-" if f["games_per_second"] is None else f"{f['games_per_second']:,.0f}",
    }


def _table(rows: list[dict]) -> str:
    headers = list(rows[0])
    cells = [[str(r[h]) for h in headers] for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(headers)]
    line = lambda values: "  ".join(v.rjust(w) if i else v.ljust(w) for i, (v, w) in enumerate(zip(values, widths)))  # noqa: E731
    return "\n".join([line(headers), line(["-" * w for w in widths]), *map(line, cells)])


# ---- options shared by job, solve and play ----


def _value(text: str):
    """An option's value: JSON where it reads as JSON (3, true, [2, 3]), else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _pairs(ctx, param, values: tuple[str, ...]) -> dict:
    out = {}
    for item in values:
        key, eq, text = item.partition("=")
        if not eq or not key:
            raise click.BadParameter(f"must be KEY=VALUE (e.g. size=3), not "
                                     f"{quanta.exceptions.quoted(item)}",
                                     ctx, param)
        out[key] = _value(text)
    return out


def _game_named(name: str, options: dict) -> quanta.Game:
    try:
        return quanta.game(name, **options)
    except quanta.QuantaError as e:
        raise click.UsageError(str(e)) from None


def _option_changes(g: quanta.Game):
    """Each way of changing one of ``g``'s options, as ``(key, value)``: a flag flipped, a
    small integer (0 to 8), the texts an unknown value's error lists, and a per-player option
    given one such value for everyone; read from the game's options, never listed by hand."""
    for key, current in g.options.items():
        first = current[0] if isinstance(current, tuple) else current
        if isinstance(first, bool):
            values: list[object] = [not first, first]
        elif isinstance(first, int):
            values = list(range(9))
        else:
            try:
                quanta.game(g.name, **{**g.options, key: "\u0000?"})
                values = []
            except quanta.QuantaError as e:
                listed = re.search(r"one of (\[.*?\])", str(e))
                values = json.loads(listed.group(1)) if listed else []
        for value in values:
            if value != current:
                yield key, value


def _other_options(g: quanta.Game, fits) -> str | None:
    """``-o KEY=VALUE`` naming one option that, changed alone, makes ``fits(game)`` true for
    the game with it changed; None if no one option does."""
    for key, value in _option_changes(g):
        try:
            other = quanta.game(g.name, **{**g.options, key: value})
            if fits(other):
                return f"-o {key}={json.dumps(value)}"
        except quanta.QuantaError:
            continue
    return None


def _position(g: quanta.Game, notation: str):
    """The state ``notation`` gives in ``g``; a usage error (exit 2) if it is not one, naming
    the option to add when the position is one of the game with another option."""
    try:
        return g.from_notation(notation)
    except quanta.QuantaError as e:
        def reads(other: quanta.Game) -> bool:
            other.from_notation(notation)
            return True

        hint = _other_options(g, reads)
        more = f"; it reads as a position with another option: add {hint}" if hint else ""
        raise click.UsageError(f"{e}{more}") from None


_option = click.option("--option", "-o", "options", multiple=True, callback=_pairs,
                       metavar="KEY=VALUE", help="A game option (repeatable), e.g. -o size=3.")
_json = click.option("--json", "as_json", is_flag=True, help="JSON, for machines.")
_timeout = click.option("--timeout", type=click.FloatRange(min=0), default=None,
                        help="Seconds per solve, 0 or more (0: stop at the first look at "
                             "the clock) [default: none].")
_max_nodes = click.option("--max-nodes", type=_Integer(0, 2**63 - 1, "2**63-1"), default=None,
                          help="Positions per solve [default: none].")
_memory = click.option("--memory-mb", type=_Integer(1, 2**20, "2**20"), default=1024,
                       show_default=True, help="Table memory per solve.")


# ---- quanta job ----


def _shard_size(default: int, rows: str):
    return click.option("--shard-size", type=_Integer(1, 2**40, "2**40"), default=default,
                        show_default=True, help=f"The most {rows} in one part file (parts are "
                                                f"sized to about {CHECKPOINT:g} s of work).")


def _executor_options(f):
    f = click.option("--local-cluster", type=_Integer(1, 1024), default=None, metavar="N",
                     help="Run on a Dask LocalCluster of N worker processes.")(f)
    f = click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Run on the Dask cluster whose scheduler is at ADDRESS "
                          "(tcp://host:8786; refused if it does not answer within 10 s).")(f)
    f = click.option("--threads", type=_Integer(1, 1024), default=None,
                     help="Rust threads per part [default: every core; with a local "
                          "cluster, the cores shared out].")(f)
    f = click.option("--out", required=True, type=click.Path(file_okay=False),
                     help="The results' directory (Parquet); run again to resume.")(f)
    f = click.option("--checkpoint", type=click.FloatRange(min=0, min_open=True),
                     default=CHECKPOINT, show_default=True, metavar="SECONDS",
                     help="Size each part file to about this much work: a run stopped at any "
                          "moment loses at most the parts it was computing.")(f)
    f = click.option("--quiet", "-q", is_flag=True, help="No progress bar.")(f)
    return _json(f)


def _run_job(make, out, threads, scheduler, local_cluster, checkpoint, quiet, as_json) -> None:
    from quanta import jobs

    if scheduler is not None and local_cluster is not None:
        raise click.UsageError("give --scheduler or --local-cluster, not both")
    try:
        job = make(jobs)
        if scheduler is None and local_cluster is None:
            report = jobs.run(job, out, threads=threads, progress=not (quiet or as_json),
                              checkpoint=checkpoint)
        else:
            if threads is None and local_cluster is not None:
                import os

                threads = max(1, (os.cpu_count() or 1) // local_cluster)
            with jobs.dask_executor(scheduler, local_cluster) as executor:
                report = jobs.run(job, out, executor=executor, threads=threads,
                                  progress=not (quiet or as_json), checkpoint=checkpoint)
    except KeyboardInterrupt:
        click.echo(f"Stopped: {out} keeps the rows finished so far; run the same command "
                   f"again to go on.", err=True)
        sys.exit(130)
    except quanta.QuantaError as e:
        raise click.UsageError(str(e)) from None
    except OSError as e:  # the output directory cannot be made or written
        raise click.UsageError(f"{e.strerror or e}: {e.filename or out}") from None
    except ImportError as e:
        raise _Failed(str(e)) from None
    click.echo(json.dumps(report.to_dict()) if as_json else report.summary())
    if report.all_failed:
        sys.exit(1)  # nothing came of the job: a script must not read it as done


@main.group(help="\n\n".join([
    "Batch jobs: resumable, written as Parquet part by part (needs 'quanta[jobs]'), one row "
    "per:",
    "\b\n" + "\n".join(f"  {kind.name}: {kind.rows}" for kind in KINDS.values()),
    "Each job's closing line counts its rows finished, undecided and failed (by error type); "
    "a job whose every row failed exits with status 1."]))
def job() -> None:
    pass


@job.command("playouts")
@click.argument("game", type=click.Choice(quanta.GAMES))
@click.option("--games", "-n", type=_Integer(1, 2**40, "2**40"), required=True,
              help="Random games in all.")
@_option
@click.option("--seed", type=_Integer(0, 2**64 - 1, "2**64-1"), default=0, show_default=True)
@_shard_size(1_000_000, "games")
@_executor_options
def job_playouts(game, games, options, seed, shard_size, **run) -> None:
    """Random games of GAME: one row per game (length, returns, winner)."""
    _run_job(lambda jobs: jobs.playouts(game, games, options=options, seed=seed,
                                        shard_size=shard_size), **run)


def _bots(ctx, param, values: tuple[str, ...]) -> list:
    """``KIND`` or ``KIND:KEY=VALUE,KEY=VALUE`` (e.g. ``mcts:iterations=100,seed=2``) as bots of
    quanta.bots; the parameters are checked by the bot."""
    made = []
    for text in values:
        kind, _, rest = text.partition(":")
        params = {}
        for item in filter(None, rest.split(",")):
            key, eq, value = item.partition("=")
            if not eq or not key:
                raise click.BadParameter(f"must be KIND or KIND:KEY=VALUE,... (e.g. "
                                         f"mcts:iterations=100), not "
                                         f"{quanta.exceptions.quoted(text)}", ctx, param)
            params[key] = _value(value)
        try:
            made.append(quanta.bots.make(kind, **params))
        except quanta.QuantaError as e:
            raise click.BadParameter(str(e), ctx, param) from None
    return made


@job.command("league")
@click.argument("game", type=click.Choice(quanta.GAMES))
@click.option("--bot", "players", multiple=True, callback=_bots, required=True,
              metavar="KIND[:KEY=VALUE,...]",
              help="A bot (repeatable, two or more), e.g. --bot mcts:iterations=100 --bot random.")
@click.option("--games", "-n", type=_Integer(1, 2**40, "2**40"), required=True,
              help="Games per pair of bots.")
@_option
@click.option("--seed", type=_Integer(0, 2**64 - 1, "2**64-1"), default=0, show_default=True)
@_shard_size(1, "pairs")
@_executor_options
def job_league(game, players, games, options, seed, shard_size, **run) -> None:
    """Every pair of the bots given by --bot plays a match of --games games of GAME
    (quanta.arena, seats rotated): one row per pair (wins, draws, mean returns)."""
    _run_job(lambda jobs: jobs.league(game, players, games, options=options, seed=seed,
                                      shard_size=shard_size), **run)


@job.command("solve")
@click.argument("game", type=click.Choice(quanta.GAMES))
@click.argument("positions", type=click.Path(exists=True, dir_okay=False))
@_option
@_timeout
@_max_nodes
@_memory
@_shard_size(100, "positions")
@_executor_options
def job_solve(game, positions, options, timeout, max_nodes, memory_mb, shard_size, **run) -> None:
    """Solve every position of the file POSITIONS (one notation a line) of GAME."""
    _run_job(lambda jobs: jobs.solve(game, positions, options=options, timeout=timeout,
                                     max_nodes=max_nodes, memory_mb=memory_mb,
                                     shard_size=shard_size), **run)


@job.command("table")
@click.argument("name", type=click.Choice(sorted(TABLES)))
@click.option("--deals", "-n", type=_Integer(1, 2**40, "2**40"), default=None,
              help="Fresh deals in all (none for a table of every deal: "
                   f"{', '.join(sorted(n for n, t in TABLES.items() if t.fixed_rows))}).")
@click.option("--param", "-p", "params", multiple=True, callback=_pairs, metavar="KEY=VALUE",
              help="A parameter of the table (repeatable), e.g. -p size=3 -p timeout=10.")
@click.option("--seed", type=_Integer(0, 2**64 - 1, "2**64-1"), default=0, show_default=True)
@_shard_size(1000, "deals")
@_executor_options
def job_table(name, deals, params, seed, shard_size, **run) -> None:
    """A perfect-play table NAME over fresh deals, or over every deal of a small board: the
    tables and their parameters are in docs/jobs.md."""
    _run_job(lambda jobs: jobs.table(name, deals, seed=seed, shard_size=shard_size, **params),
             **run)


# ---- quanta solve ----


@main.command("solve")
@click.argument("game", type=click.Choice(quanta.GAMES))
@click.argument("notation")
@_option
@_timeout
@_max_nodes
@_memory
@_json
@click.option("--quiet", "-q", is_flag=True, help="No progress line.")
def solve_command(game, notation, options, timeout, max_nodes, memory_mb, as_json,
                  quiet) -> None:
    """Solve one position of GAME given by NOTATION: its value and the best line.

    A search stopped by a limit is undecided: no value, the reason, and exit status 1. A
    search longer than a second shows its time so far (and against --timeout, the time
    left) on standard error."""
    from quanta.solvers import SOLVERS, solve

    g = _game_named(game, options)
    if g.name not in SOLVERS:
        raise click.UsageError(f"{g.name} has no solver yet; the games with one are "
                               f"{sorted(SOLVERS)}")
    state = _position(g, notation)
    try:
        with _searching(timeout, quiet or as_json):
            a = solve(state, timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb)
    except quanta.NotApplicableError as e:
        hint = _other_options(g, lambda other: _solvable(other, notation))
        if hint is None:
            raise click.UsageError(str(e)) from None
        raise click.UsageError(f"{g.name}: the solver does not take this position with the "
                               f"options given; add {hint} to solve it") from None
    except quanta.QuantaError as e:
        raise click.UsageError(str(e)) from None
    out = {"game": g.name, "notation": notation, "value": a.value, "best": a.best,
           "nodes": a.nodes, "seconds": a.seconds, "exact": a.exact, "reason": a.reason,
           "value_means": SOLVERS[g.name].value}
    if as_json:
        click.echo(json.dumps(out))
    else:
        click.echo(_text(state))
        if a.value is None:
            click.echo(f"value    undecided: {a.reason}")
        else:
            click.echo(f"value    {a.value:.6g}   ({SOLVERS[g.name].value})")
            if not a.exact:
                click.echo(f"         not exact: {a.reason}")
        click.echo(f"best     {a.best if a.best is not None else '-'}")
        click.echo(f"searched {a.nodes or 0:,} nodes in {a.seconds or 0:.3f} s")
    if a.value is None:
        sys.exit(1)


def _solvable(g: quanta.Game, notation: str) -> bool:
    """Whether ``g``'s solver takes the position ``notation`` (a first look, no search)."""
    from quanta.solvers import solve

    try:
        solve(g.from_notation(notation), timeout=0, memory_mb=1)
    except quanta.NotApplicableError:
        return False
    return True


#: Seconds a search runs before ``quanta solve`` shows its progress.
SEARCH_QUIET = 1.0


@contextlib.contextmanager
def _searching(timeout: float | None, quiet: bool):
    """A progress line for the search run inside, shown once it has taken
    :data:`SEARCH_QUIET` seconds: the seconds so far, against ``timeout`` when there is one."""
    if quiet:
        yield
        return
    import threading

    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    done = threading.Event()

    def show() -> None:
        if done.wait(SEARCH_QUIET):
            return
        with tqdm(total=timeout, desc="searching", unit="s", leave=False,
                  initial=SEARCH_QUIET, bar_format=None if timeout else
                  "{desc}: {elapsed}") as bar:
            began = time.monotonic() - SEARCH_QUIET
            while not done.wait(0.25):
                bar.n = round(time.monotonic() - began, 1)
                bar.refresh()

    thread = threading.Thread(target=show, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


# ---- quanta play ----


def _text(state, viewer: int | None = None) -> str:
    """The position drawn as ``viewer`` may see it (everything when None): the game module's
    ``text``, read from the state's view."""
    return importlib.import_module(f"quanta.{state.game.name}").text(state, viewer)


def _computer(kind: str, seed: int, think: float) -> quanta.Bot:
    """The computer player: the bot of ``kind`` (a search or the best player searching
    ``think`` seconds a move)."""
    takes_timeout = "timeout" in quanta.bots.parameters(kind)
    return quanta.bots.make(kind, seed=seed, **({"timeout": think} if takes_timeout else {}))


@main.command("play")
@click.argument("game", type=click.Choice(quanta.GAMES))
@click.option("--as", "seat", type=_Integer(0, 3), default=0, show_default=True,
              help="Your seat.")
@_option
@click.option("--position", "notation", default=None, metavar="NOTATION",
              help="Start from this position (the game's notation) instead of a new game.")
@click.option("--seed", type=_Integer(0, 2**64 - 1, "2**64-1"), default=0, show_default=True,
              help="Seed of chance and of the computer's choices.")
@click.option("--think", type=click.FloatRange(min=0, min_open=True), default=2.0,
              show_default=True, help="Seconds the computer may search a move.")
@click.option("--bot", type=click.Choice(quanta.bots.KINDS), default="best", show_default=True,
              help="Play against this bot of quanta.bots (best, mcts, ismcts and solver search "
                   "--think seconds a move); best is quanta's best player for the game.")
def play_command(game, seat, options, notation, seed, think, bot) -> None:
    """Play GAME in the terminal against quanta's best player for it (quanta.bots.Best: what
    each game declares, listed in quanta.bots.BEST_PLAYERS), or against the --bot named.

    Type a move in the game's notation; '?' lists your legal moves, 'hint' shows the move
    quanta's best player would make in your place, 'quit' stops."""
    g = _game_named(game, options)
    if seat >= g.num_players:
        raise click.UsageError(f"--as must be a seat from 0 to {g.num_players - 1} for {g.name}")
    state = g.new_state() if notation is None else _position(g, notation)
    rng = random.Random(seed)
    computer = _computer(bot, seed, think)
    adviser = _computer("best", seed, think)
    while not state.is_terminal:
        if state.is_chance:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            click.echo(f"  chance: {state.action_to_string(action, seat)}")
            state = state.play(action)
            continue
        if state.current_player != seat:
            action = computer.choose(state)
            click.echo(f"  player {state.current_player}: "
                       f"{state.action_to_string(action, seat)}")
            state = state.play(action)
            continue
        click.echo(_text(state, seat))
        while True:
            try:
                # click.prompt's own reader (input(), or a test runner's), without its turning
                # the end of the input into Abort, which Ctrl-C also raises.
                typed = click.termui.visible_prompt_func(f"your move (player {seat})> ").strip()
            except EOFError:  # the end of the input: the player has left, quietly
                click.echo("")
                return
            if typed == "quit":
                return
            if typed == "?":
                click.echo("  " + ", ".join(state.action_to_string(a)
                                            for a in state.legal_actions()))
                continue
            if typed == "hint":
                hint = adviser.choose(state)
                click.echo(f"  hint: {state.action_to_string(hint)}")
                continue
            try:
                state = state.play(state.parse_action(typed))
                break
            except quanta.QuantaError as e:
                click.echo(f"  {e} ('?' lists your moves, 'hint' suggests one)")
    click.echo(_text(state))
    returns = state.returns()
    click.echo("game over: returns " + ", ".join(f"player {p}: {r:+g}"
                                                for p, r in enumerate(returns)))


if __name__ == "__main__":
    main()
