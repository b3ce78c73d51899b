"""Which config file is read (issue 15): --config, then MODERATOR_CONFIG, then
./config.toml, then the XDG config folders; with none, an error naming them and
`moderator init`, and nothing created.  `moderator init` writes the commented file."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from moderator import __version__
from moderator.cli import cli
from moderator.settings import resources
from moderator.settings.config import ConfigNotFound, config_places, find_config, load_config

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty current folder and XDG folders, no MODERATOR_CONFIG."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MODERATOR_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-home"))
    monkeypatch.setenv("XDG_CONFIG_DIRS", f"{tmp_path / 'xdg-a'}:{tmp_path / 'xdg-b'}")
    return tmp_path


def _write(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# x\n", encoding="utf-8")
    return path


def test_places_in_order(nowhere: Path) -> None:
    assert config_places() == [
        nowhere / "config.toml",
        nowhere / "xdg-home" / "moderator" / "config.toml",
        nowhere / "xdg-a" / "moderator" / "config.toml",
        nowhere / "xdg-b" / "moderator" / "config.toml",
    ]


def test_each_place_wins_over_the_later_ones(nowhere: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    b = _write(nowhere / "xdg-b" / "moderator" / "config.toml")
    assert find_config() == b
    a = _write(nowhere / "xdg-a" / "moderator" / "config.toml")
    assert find_config() == a
    home = _write(nowhere / "xdg-home" / "moderator" / "config.toml")
    assert find_config() == home
    here = _write(nowhere / "config.toml")
    assert find_config() == here
    env = _write(nowhere / "env.toml")
    monkeypatch.setenv("MODERATOR_CONFIG", str(env))
    assert find_config() == env
    explicit = _write(nowhere / "explicit.toml")
    assert find_config(explicit) == explicit


def test_a_named_file_that_is_missing_is_an_error(nowhere: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _write(nowhere / "config.toml")  # never used in place of the named one
    with pytest.raises(ConfigNotFound, match="--config names"):
        find_config(nowhere / "nope.toml")
    monkeypatch.setenv("MODERATOR_CONFIG", str(nowhere / "gone.toml"))
    with pytest.raises(ConfigNotFound, match="MODERATOR_CONFIG names"):
        find_config()


def test_no_config_is_a_clear_error_and_creates_nothing(nowhere: Path) -> None:
    result = CliRunner().invoke(cli, ["game", "list"])
    assert result.exit_code != 0
    message = str(result.exception)
    for named in ("--config", "MODERATOR_CONFIG", str(nowhere / "config.toml"),
                  str(nowhere / "xdg-home" / "moderator" / "config.toml"), "moderator init"):
        assert named in message
    assert list(nowhere.iterdir()) == []


def test_init_writes_the_commented_config_and_it_loads(nowhere: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["init"])
    assert result.exit_code == 0, result.output
    written = nowhere / "config.toml"
    assert written.read_text() == (ROOT / "config.toml").read_text()
    config = load_config(written)
    assert config.database_url == f"sqlite:///{nowhere / 'var' / 'moderator.sqlite'}"
    assert config.data_dir == resources.data_dir()
    assert config.templates_dir == resources.templates_dir()
    assert not (nowhere / "var").exists()  # made when the store is first opened
    again = runner.invoke(cli, ["init"])
    assert again.exit_code != 0 and "--force" in again.output
    other = runner.invoke(cli, ["init", str(nowhere / "etc")])
    assert other.exit_code == 0 and tomllib.loads((nowhere / "etc" / "config.toml").read_text())


def test_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"moderator {__version__}"


def test_shipped_resources_are_found_in_a_checkout() -> None:
    assert resources.data_dir() == ROOT / "data"
    assert (resources.templates_dir() / "mail").is_dir()
    assert (resources.forms_dir() / "engarde.txt").is_file()
