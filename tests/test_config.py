"""config.toml: every setting documented, every problem reported at once."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from moderator.settings.config import SETTINGS, ConfigError, load_config

ROOT = Path(__file__).resolve().parents[1]


def _flat_keys(table: dict, prefix: str = "") -> set[str]:
    keys: set[str] = set()
    for key, value in table.items():
        if isinstance(value, dict):
            keys |= _flat_keys(value, f"{prefix}{key}.")
        else:
            keys.add(f"{prefix}{key}")
    return keys


def test_shipped_config_sets_and_documents_every_setting() -> None:
    text = (ROOT / "config.toml").read_text(encoding="utf-8")
    assert _flat_keys(tomllib.loads(text)) == {s.key for s in SETTINGS}
    lines = text.splitlines()
    for setting in SETTINGS:
        leaf = setting.key.rsplit(".", 1)[1]
        index = next(i for i, line in enumerate(lines) if line.startswith(f"{leaf} ="))
        assert lines[index - 1].startswith("#"), f"{setting.key} has no comment above it"


def test_shipped_config_loads_with_defaults() -> None:
    config = load_config(ROOT / "config.toml")
    assert config.database_url.startswith("sqlite:///")
    assert config.database_url.endswith("var/moderator.sqlite")
    assert config.transport == "maildir"
    assert config.zone.key == "Europe/Paris"


def test_every_problem_is_reported_with_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[mail]\ntransport = "pigeon"\nadress = "x"\n[time]\nzone = "Mars/Olympus"\n'
                    "[intake]\nmax_lines = \"many\"\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    problems = caught.value.problems
    assert len(problems) == 4
    assert all(str(path) in p for p in problems)
    joined = "\n".join(problems)
    for key in ("mail.adress", "mail.transport", "time.zone", "intake.max_lines"):
        assert key in joined


def test_relative_paths_are_relative_to_the_config_file(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "config.toml"
    path.parent.mkdir()
    path.write_text('[paths]\nspool = "spool-here"\n')
    assert load_config(path).spool_dir == (tmp_path / "sub" / "spool-here").resolve()
