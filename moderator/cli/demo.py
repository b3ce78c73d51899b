"""``moderator demo``: a whole En Garde! month by email on local Maildirs."""

from __future__ import annotations

from pathlib import Path

import click

from moderator.cli.app import console


@click.command()
@click.option("--dir", "folder", type=click.Path(path_type=Path, file_okay=False),
              default=Path("var/demo"), show_default=True, help="Where the demo lives.")
def demo(folder: Path) -> None:
    """Run a whole En Garde! month by email on local Maildirs and show where to look."""
    from moderator.demo.month import run_demo

    run_demo(folder.resolve(), console)
