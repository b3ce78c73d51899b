"""``moderator site build [GAME]``: the archive as a static site (`moderator.publish.site`)."""

from __future__ import annotations

import time
from pathlib import Path

import click
from sqlmodel import Session

from moderator.cli.app import App, console, pass_app
from moderator.publish.site import build_site
from moderator.store import repo


@click.group()
def site() -> None:
    """The public archive as a static site."""


@site.command("build")
@click.argument("game_names", metavar="[GAME]...", nargs=-1)
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False),
              help="Where to write it (default: [site] folder, else the folder 'site' "
                   "beside the archive).")
@pass_app
def site_build(app: App, game_names: tuple[str, ...], out_dir: Path | None) -> None:
    """Build the site of every game (or of the GAMEs named): plain files to serve from
    any web server.  Every published turn rebuilds its game's pages by itself ([site]
    after_turn); run this after `after_turn = false`, a failed rebuild (`site.failed` in
    the GM log) or a template change.  Only files whose bytes change are written.

    \b
    moderator site build
    moderator site build paris --out /var/www/gazettes
    """
    target = out_dir or app.config.site_folder
    start = time.perf_counter()
    with Session(app.db) as session:
        # Each name as stored (lower case); an unknown one is refused, never built as nothing.
        names = [repo.game_by_name(session, name).name for name in game_names]
        changed = build_site(session, app.config, target, names or None)
    console.print(f"Site in {target}: {len(changed)} file(s) written or removed "
                  f"in {time.perf_counter() - start:.1f} s.")
