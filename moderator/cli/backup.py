"""``moderator backup create|verify|restore``: the host in one file, and back
(`moderator.store.backup`)."""

from __future__ import annotations

from pathlib import Path

import click

from moderator.cli.app import App, console, pass_app, styled

_LISTED = 20  # players named after a restore with a new key; the rest counted


def _default_folder(app: App) -> Path:
    """``backups`` beside the archive, as the site is built beside it."""
    return app.config.archive_dir.parent / "backups"


@click.group()
def backup() -> None:
    """Back the host up into one file, check a backup, restore one."""


@backup.command("create")
@click.option("--to", "folder", type=click.Path(path_type=Path, file_okay=False),
              help="The folder to write it in (default: 'backups' beside the archive).")
@click.option("--keep", type=click.IntRange(min=1), metavar="N",
              help="Then delete all but the N newest backups in that folder.")
@click.option("--with-key", is_flag=True,
              help="Put the server key in the backup too (by default only its fingerprint: "
                   "keep the key file apart, so that the backup alone cannot test "
                   "passwords).")
@pass_app
def backup_create(app: App, folder: Path | None, keep: int | None, with_key: bool) -> None:
    """Write a backup of this host: every row of the store, read at one instant while
    `serve` runs on, and the published archive; the file is 0600 and is checked after
    it is written.  Safe to run from cron.

    \b
    moderator backup create
    moderator backup create --to /srv/backups --keep 14
    """
    from moderator.store.backup.create import create_backup, prune_backups
    from moderator.store.backup.verify import verify_backup

    target = folder or _default_folder(app)
    config = app.config
    path = create_backup(app.db, target, key_file=config.key_file,
                         archive_dir=config.archive_dir, config_file=config.path,
                         with_key=with_key)
    manifest = verify_backup(path)
    rows = sum(m.rows or 0 for m in manifest.tables)
    console.print(f"Backup {path}: {rows} rows in {len(manifest.tables)} tables, "
                  f"{sum(m.name.startswith('archive/') for m in manifest.members)} archive "
                  f"files, {path.stat().st_size / 1024:.0f} KiB, verified.")
    if not with_key and manifest.key_id:
        console.print(f"The server key is not in it: keep a copy of {config.key_file} "
                      f"(key id {manifest.key_id}) somewhere else.")
    if keep is not None:
        for old in prune_backups(target, keep):
            console.print(f"Deleted the older backup {old.name}.")


@backup.command("verify")
@click.argument("path", type=click.Path(path_type=Path, dir_okay=False, exists=True))
def backup_verify(path: Path) -> None:
    """Read the whole backup at PATH and check every file in it against its manifest."""
    from moderator.store.backup.verify import verify_backup

    manifest = verify_backup(path)
    console.print(f"{path.name}: whole.  Taken {manifest.created:%Y-%m-%d %H:%M:%S} UTC by "
                  f"moderator {manifest.moderator} on {manifest.backend}, schema "
                  f"{', '.join(manifest.schema)}; server key "
                  f"{'inside' if manifest.has_key else 'not inside'}"
                  f"{f' (key id {manifest.key_id})' if manifest.key_id else ''}.")
    for member in manifest.tables:
        console.print(f"  {member.name.removeprefix('tables/').removesuffix('.jsonl')}: "
                      f"{member.rows} rows")


@backup.command("restore")
@click.argument("path", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--reason", required=True, help="Why (logged in the audit trail).")
@click.option("--new-key", is_flag=True,
              help="Restore without the server key the backup was taken with: players with a "
                   "generated password get a new one from you (`moderator player password`).")
@pass_app
def backup_restore(app: App, path: Path, reason: str, new_key: bool) -> None:
    """Restore the backup at PATH into this config's store, which must be empty (a new
    SQLite file or PostgreSQL database: either backend restores into either), and its
    archive folder.  The whole file is checked first; the store is written in one
    transaction, so a failed restore leaves it empty and can be run again.

    \b
    moderator backup restore backups/moderator-backup-20261207T030000Z.tar.gz \\
        --reason "disk lost; new host"
    """
    from moderator.store.backup.restore import restore_backup

    config = app.config
    done = restore_backup(path, database_url=config.database_url, key_file=config.key_file,
                          archive_dir=config.archive_dir, reason=reason, who=app.who(),
                          new_key=new_key)
    console.print(f"Restored {path.name} (taken {done.manifest.created:%Y-%m-%d %H:%M} UTC): "
                  f"{done.rows} rows, {done.archive_files} archive files; server key "
                  f"{done.key}.")
    lost = done.need_new_passwords
    if lost:
        shown = "; ".join(lost[:_LISTED]) + (f"; and {len(lost) - _LISTED} more"
                                             if len(lost) > _LISTED else "")
        console.print(styled("[yellow]Generated passwords made with the other key no longer "
                             "verify ({count})[/]: {names}.  Give each a new one: "
                             "moderator player password GAME PLAYER --reset --reason ...",
                             count=f"{len(lost)} player{'s' if len(lost) > 1 else ''}",
                             names=shown))
    console.print("Start `moderator serve`: its scheduler takes the games' deadlines "
                  "from the restored store.")
