"""``moderator demo``: a whole En Garde! month, or the first turns of Down with the King or
Fief: England, by email on local Maildirs."""

from __future__ import annotations

from pathlib import Path

import click

from moderator.cli.app import console


@click.command()
@click.option("--dir", "folder", type=click.Path(path_type=Path, file_okay=False),
              default=None, help="Where the demo lives (default: var/demo, var/demo-dwtk or "
                                 "var/demo-fief).")
@click.option("--kind", type=click.Choice(["engarde", "dwtk", "fief"]), default="engarde",
              show_default=True, help="Which game.")
def demo(folder: Path | None, kind: str) -> None:
    """Run a game by email on local Maildirs and show where to look: an En Garde! month,
    or (--kind) the deal and a turn of Down with the King, the muster and a round of Fief:
    England."""
    from moderator.demo.month import run_demo
    from moderator.demo.others import run_other_demo

    where = (folder or Path("var/demo" if kind == "engarde" else f"var/demo-{kind}")).resolve()
    if kind == "engarde":
        run_demo(where, console)
    else:
        run_other_demo(kind, where, console)
