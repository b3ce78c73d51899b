"""``moderator init``: a commented config.toml for a new deployment."""

from __future__ import annotations

from pathlib import Path

import click

from moderator.cli.app import console
from moderator.settings import resources


@click.command()
@click.argument("path", type=click.Path(path_type=Path, dir_okay=True), default="config.toml",
                required=False)
@click.option("--force", is_flag=True, help="Replace an existing file.")
def init(path: Path, force: bool) -> None:
    """Write a commented config.toml (every setting with its default) at PATH.

    PATH defaults to ./config.toml; a folder (or a name without a suffix, such as
    /etc/moderator) gets a config.toml inside it.  The store,
    the spool and the archive are made next to the file when first used.
    """
    if path.is_dir() or not path.suffix:
        path = path / "config.toml"
    if path.exists() and not force:
        raise click.ClickException(f"{path} exists; add --force to replace it")
    path.parent.mkdir(parents=True, exist_ok=True)
    text = resources.config_template().read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    where = path.resolve()
    console.print(f"Wrote {where}.")
    console.print("Next: edit [mail] (addresses, transport) and [database], then "
                  f"`moderator --config {where} status`, or run moderator from "
                  f"{where.parent}, or set MODERATOR_CONFIG={where}.")
