"""Benchmark: a 1,000-character En Garde! month, end to end.

Reports the figures BENCHMARKS.md asks for (issue 16 goals 1 and 2), wall and CPU time:

1. parsing every character's orders (what intake does, message by message);
2. adjudication of the month (all orders resolved by the pure engine);
3. rendering the gazette and every turn sheet (jinja2 -> Markdown -> HTML -> text), and in
   an instrumented second run where that time goes (templates, order forms, Markdown,
   css-inline, the nh3 sanitizer, the text part);
4. peak memory (traced Python allocations during 2+3, and the process's max RSS);
5. intake of order emails (spool, store, route, password check, parse, receipt) on a real
   SQLite file.

Run:  .venv/bin/python benchmarks/bench_month.py [--characters 1000] [--emails 1000]
      [--no-memory] [--workers N]
The machine is shared: the load average is printed beside the figures, and CPU time
(``process_time``, this process only) is less disturbed by other load than wall time.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import resource
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from moderator import jsonio
from moderator.demo import samples
from moderator.dice import Dice
from moderator.games import find_engine
from moderator.games.engarde.character import roll_character
from moderator.games.engarde.state import GameState
from moderator.intake.process import process_message
from moderator.publish.newsletter import Reader, TurnData, render_turn
from moderator.settings.config import load_config
from moderator.settings.tables import load_tables
from moderator.store.db import open_store, session_scope
from moderator.store.models import Game, Player, PlayerAddress, Turn
from moderator.store.passwords import hash_password
from moderator.turn.run import Adjudication, adjudicate

ROOT = Path(__file__).resolve().parents[1]
CLUBS_BY_SL = ((12, "Bothwell's"), (9, "Hunter's"), (7, "The Blue Gables"),
               (5, "The Frog & Peach"), (3, "Red Phillips"))


def club_for(sl: int) -> str | None:
    return next((name for need, name in CLUBS_BY_SL if sl >= need), None)


def orders_for(key: str, character: dict[str, Any], partner: str | None, rng: random.Random,
               names: dict[str, str]) -> str:
    """A full, plausible month for one character: the Paris round for everyone, and for
    half of them one more piece of business (a regiment, a loan, an announcement, a
    challenge, the front)."""
    club = club_for(character["sl"])
    lines = ["PREMONTH: SUPPORT " + rng.choice(["NORMAL", "CONSPICUOUS"])]
    if club:
        lines.append(f"ANYTIME: JOIN CLUB {club}")
        week1 = f"WEEK 1: CLUB {club}; CAROUSE; GAMBLE 10 x{rng.randint(1, 9)} CUT 5"
        if partner:
            week1 += f"; TOADY {names[partner]}"
        lines.append(week1)
    else:
        lines.append("WEEK 1: BAWDYHOUSE; GAMBLE 5 x3 CUT 4")
    draw = rng.random()  # a share of the month's other business, as in a real game
    if draw < 0.25:
        lines.append("ANYTIME: JOIN REGIMENT 13th Fusiliers")
    elif draw < 0.35:
        lines.append(f"ANYTIME: BORROW {rng.randint(1, 5) * 10} FROM SHYLOCK")
    elif draw < 0.40:
        lines.append(f'ANYTIME: ANNOUNCE "{names[key]} salutes the gentlemen of Paris."')
    elif draw < 0.45 and partner:
        lines.append(f"ANYTIME: CHALLENGE {names[partner]}")
    elif draw < 0.50:
        lines.append("ANYTIME: VOLUNTEER FOR THE FRONT")
    lines += [
        f"WEEK 2: PRACTICE {rng.choice(['rapier', 'sabre', 'cutlass'])}",
        "WEEK 3: BAWDYHOUSE; CAROUSE",
        "WEEK 4: IF WEEK 2 FAILED THEN PRACTICE rapier ELSE PRACTICE sabre ENDIF",
        "WEEKEND 1: THEATRE FIRST NIGHT" if rng.random() < 0.3 else "WEEKEND 2: THEATRE",
        "STANDING WEEK 4: BAWDYHOUSE",
    ]
    return "\n".join(lines) + "\n"


def timed(label: str, results: dict[str, float], work: Callable[[], Any]) -> Any:
    """Run ``work``; its wall time under ``label``, its CPU time under ``label (cpu)``."""
    start, cpu = time.perf_counter(), cpu_seconds()
    value = work()
    results[label] = time.perf_counter() - start
    results[label + " [cpu]"] = cpu_seconds() - cpu
    return value


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the render workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def new_characters(state: dict[str, Any], n: int, tables: Any, dice: Dice) -> dict[str, Any]:
    """``n`` characters rolled as `engine.add_character` rolls them (each on his own
    ``birth:<key>`` stream), added in one step: calling it n times re-reads the whole
    state every time, which made the set-up itself quadratic."""
    game = GameState.from_dict(state)
    characters = dict(game.characters)
    for i in range(n):
        key = f"c{i:04d}"
        characters[key], _ = roll_character(key, f"Chevalier {i:04d}", tables,
                                            dice.stream(f"birth:{key}"))
    return GameState(game.name, game.month, game.year, game.turn, characters).to_dict()


def build_month(n: int) -> tuple[Any, Any, dict[str, Any], dict[str, str]]:
    engine = find_engine("engarde")
    tables = load_tables(ROOT / "data", "engarde")
    dice = Dice.for_turn(1625, 0)
    state = new_characters(engine.new_game("bench", tables, dice), n, tables, dice)
    rng = random.Random(7)
    keys = sorted(state["characters"])
    names = {k: state["characters"][k]["name"] for k in keys}
    # Pair characters of the same club so a share of the toadying orders match.
    texts = {}
    for i, key in enumerate(keys):
        partner = keys[i ^ 1] if (i ^ 1) < len(keys) else None
        same = partner and club_for(state["characters"][partner]["sl"]) == club_for(
            state["characters"][key]["sl"])
        texts[key] = orders_for(key, state["characters"][key], partner if same else None,
                                rng, names)
    return engine, tables, state, texts


# Where rendering time goes: (label, module, function name) wrapped in the instrumented run.
PIECES = (
    ("templates (jinja2)", "moderator.publish.newsletter", "render"),
    ("order forms", "moderator.games.engarde.engine", "build_form"),
    ("Markdown -> HTML", "moderator.publish.render", "markdown_body"),
    ("css-inline", "moderator.publish.render", "inline_styles"),
    ("nh3 sanitizer", "moderator.publish.render", "sanitize"),
    ("text part", "moderator.publish.render", "html_to_text"),
)


def instrumented(work: Callable[[], Any]) -> dict[str, float]:
    """CPU seconds spent in each of `PIECES` while ``work`` runs (a separate run: the
    wrappers add a little time of their own)."""
    spent = {label: 0.0 for label, _, _ in PIECES}
    saved = []
    for label, module_name, attr in PIECES:
        module = importlib.import_module(module_name)
        original = getattr(module, attr, None)
        if original is None:
            continue

        def wrapper(*args: Any, _f: Any = original, _label: str = label, **kw: Any) -> Any:
            start = time.process_time()
            try:
                return _f(*args, **kw)
            finally:
                spent[_label] += time.process_time() - start

        saved.append((module, attr, original))
        setattr(module, attr, wrapper)
    # The gazette's own share: the newsletter whose subject is no turn sheet's.
    newsletter = importlib.import_module("moderator.publish.newsletter")
    finish = newsletter._finish
    spent["the gazette (Markdown to HTML and text)"] = 0.0

    def gazette(subject: str, markdown: str) -> Any:
        start = time.process_time()
        try:
            return finish(subject, markdown)
        finally:
            if "Turn sheet" not in subject:
                spent["the gazette (Markdown to HTML and text)"] += time.process_time() - start

    saved.append((newsletter, "_finish", finish))
    newsletter._finish = gazette
    try:
        work()
    finally:
        for module, attr, original in saved:
            setattr(module, attr, original)
    return spent


def bench_month(n: int, memory: bool = True, workers: int | None = None) -> dict[str, float]:
    results: dict[str, float] = {}
    engine, tables, state, texts = build_month(n)
    parsed = timed("parse all orders (at intake)", results, lambda: {
        key: engine.parse_orders(text, state, key, tables) for key, text in texts.items()})
    errors = sum(len(p.hard_errors) for p in parsed.values())
    orders = {key: p.orders for key, p in parsed.items()}
    readers = [Reader(i, key, state["characters"][key]["name"], f"{key}@bench.example")
               for i, key in enumerate(sorted(state["characters"]))]
    options = {} if workers is None else {"workers": workers}

    def month() -> tuple[Adjudication, Any, TurnData]:
        # As a turn's run does it (`turn.run.adjudicate`: the collector paused around it).
        result = timed("adjudicate the month", results,
                       lambda: adjudicate(engine, tables, 1625, 1, state, orders))
        data = TurnData("bench", 1, engine.turn_label(state), None, state, result.state,
                        list(result.events), result.dice)
        rendered = timed("render gazette + all turn sheets", results,
                         lambda: render_turn(ROOT / "templates", engine, tables, data, readers,
                                             **options))
        return result, rendered, data

    if memory:  # traced in a separate run: tracing slows Python down several-fold
        tracemalloc.start()
        month()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        results["peak traced memory (MiB)"] = peak / 2**20
    result, rendered, data = month()
    results["events"] = len(result.events)
    results["dice rolls"] = len(result.dice)
    results["order errors"] = errors
    results["turn sheets"] = len(rendered.sheets)
    results["gazette bytes (html)"] = len(rendered.gazette.html)
    timed("render gazette + all turn sheets, one process", results,
          lambda: render_turn(ROOT / "templates", engine, tables, data, readers, workers=1))
    pieces = instrumented(lambda: render_turn(ROOT / "templates", engine, tables, data,
                                              readers, workers=1))
    for label, seconds in pieces.items():
        results[f"render, of which {label} [cpu, one process]"] = seconds
    return results


def bench_intake(n: int) -> dict[str, float]:
    results: dict[str, float] = {}
    engine, _tables, state, texts = build_month(n)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "config.toml").write_text(
            f'[database]\nurl = "sqlite:///{folder}/m.sqlite"\n'
            f'[paths]\ndata = "{ROOT / "data"}"\ntemplates = "{ROOT / "templates"}"\n'
            'spool = "spool"\narchive = "archive"\n')
        config = load_config(folder / "config.toml")
        db = open_store(config.database_url)
        password_hash = hash_password("secret")  # one hash: setup, not what is measured
        with session_scope(db) as session:
            game = Game(name="bench", kind="engarde", seed=1625)
            session.add(game)
            session.flush()
            session.add(Turn(game_id=game.id, number=1, label=engine.turn_label(state),
                             seed=1625, state_before=jsonio.dumps(state)))
            for key, character in state["characters"].items():
                player = Player(game_id=game.id, name=character["name"], character_key=key,
                                email=f"{key}@bench.example", password_hash=password_hash)
                session.add(player)
                session.flush()
                session.add(PlayerAddress(game_id=game.id, player_id=player.id,
                                          email=player.email))
        when = datetime(2026, 12, 1, tzinfo=UTC)
        mails = [samples.thunderbird_plain(
            sender=f"{key}@bench.example", sender_name=key, to=config.moderator_address,
            subject="[bench] orders", body="PASSWORD: secret\n" + text, date=when,
            message_id=f"bench-{key}@bench.example") for key, text in texts.items()]
        statuses = timed(f"intake of {n} order emails", results,
                         lambda: [process_message(db, config, raw).status for raw in mails])
        results["accepted"] = statuses.count("accepted")
        results["per email (ms)"] = results[f"intake of {n} order emails"] / n * 1000
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=1000)
    parser.add_argument("--emails", type=int, default=1000)
    parser.add_argument("--no-memory", action="store_true",
                        help="skip the traced-memory run (it is slow)")
    parser.add_argument("--workers", type=int, default=None,
                        help="render with this many processes (default: render_turn's choice)")
    args = parser.parse_args()
    load = os.getloadavg()
    month = bench_month(args.characters, not args.no_memory, args.workers)
    intake = bench_intake(args.emails) if args.emails else {}
    print(f"| figure ({args.characters} characters) | value |")
    print("|---|---|")
    for label, value in {**month, **intake}.items():
        is_time = isinstance(value, float) and not label.endswith(("(MiB)", "(ms)"))
        shown = f"{value:.3f} s" if is_time else (
            f"{value:.1f}" if isinstance(value, float) else str(value))
        print(f"| {label} | {shown} |")
    total = month["adjudicate the month"] + month["render gazette + all turn sheets"]
    cpu = month["adjudicate the month [cpu]"] + month["render gazette + all turn sheets [cpu]"]
    print(f"| adjudicate + render | {total:.3f} s |")
    print(f"| adjudicate + render [cpu, this process] | {cpu:.3f} s |")
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"| process max RSS (MiB) | {maxrss:.0f} |")
    after = os.getloadavg()
    print(f"| load average (1 min) before / after | {load[0]:.1f} / {after[0]:.1f} |")


if __name__ == "__main__":
    main()
