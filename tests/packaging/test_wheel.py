"""The wheel installs anywhere (issue 15): built from the checkout, installed into a fresh
virtualenv in a temporary folder outside it, and run there with no checkout in sight.

Slow (a wheel build and a virtualenv with the dependencies from the package index,
about a minute); it needs the package index, as `make test` does.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None,
         ok: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=900, check=False)
    if ok:
        assert result.returncode == 0, f"{args}:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(ROOT), "-w", str(out)],
         cwd=out)
    (found,) = out.glob("moderator-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv (no system site-packages) with only the wheel and its deps."""
    home = tmp_path_factory.mktemp("elsewhere")
    assert ROOT not in home.parents
    env_dir = home / "venv"
    venv.create(env_dir, with_pip=True)
    _run([str(env_dir / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)], cwd=home)
    return env_dir


def _clean_env(home: Path) -> dict[str, str]:
    """The environment without anything that could point back at the checkout."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "MODERATOR_CONFIG", "VIRTUAL_ENV")}
    env["HOME"] = str(home)
    env["XDG_CONFIG_HOME"] = str(home / ".config")
    env["XDG_CONFIG_DIRS"] = str(home / "etc-xdg")
    return env


def test_the_wheel_carries_the_tables_templates_forms_and_config(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("moderator/_resources/data/engarde/", "moderator/_resources/data/dwtk/",
                   "moderator/_resources/templates/mail/",
                   "moderator/_resources/templates/engarde/",
                   "moderator/_resources/orders/forms/engarde.txt",
                   "moderator/_resources/config.toml", "moderator/store/migrations/env.py",
                   "moderator/store/migrations/script.py.mako", "moderator/__main__.py"):
        assert any(n.startswith(needed) for n in names), needed
    assert not any(n.startswith(("tests/", "orders/spool")) for n in names)
    # The systemd units and the page their Documentation= names, installed under the
    # environment's share/ (/opt/moderator/share/... in docs/deployment.md): no checkout.
    data = next(n.split("/")[0] for n in names if ".data/" in n)
    for shared in ("share/doc/moderator/deployment.md",
                   "share/moderator/contrib/moderator.service",
                   "share/moderator/contrib/moderator-worker@.service"):
        assert f"{data}/data/{shared}" in names, shared
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "License-Expression: MIT" in text
    assert "html2text" not in text and "Requires-Dist: inscriptis" in text


def test_installed_version_init_and_demo_run_outside_the_checkout(
        installed: Path, tmp_path: Path) -> None:
    moderator = str(installed / "bin" / "moderator")
    env = _clean_env(tmp_path)
    from moderator import __version__

    assert _run([moderator, "--version"], tmp_path, env).stdout.strip() == \
        f"moderator {__version__}"
    assert __version__ in _run([str(installed / "bin" / "python"), "-m", "moderator",
                                "--version"], tmp_path, env).stdout

    # No config anywhere: a clear error naming the places and `moderator init`, no var/.
    missing = _run([moderator, "game", "list"], tmp_path, env, ok=False)
    assert missing.returncode == 2
    said = missing.stdout + missing.stderr
    assert "moderator init" in said and "MODERATOR_CONFIG" in said
    assert not (tmp_path / "var").exists()

    _run([moderator, "init"], tmp_path, env)
    assert (tmp_path / "config.toml").read_text().startswith("# moderator")
    listed = _run([moderator, "game", "list"], tmp_path, env).stdout
    assert "game" in listed and (tmp_path / "var" / "moderator.sqlite").exists()

    demo = _run([moderator, "demo", "--dir", str(tmp_path / "demo")], tmp_path, env)
    assert (tmp_path / "demo" / "moderator.sqlite").exists(), demo.stdout
    assert any((tmp_path / "demo" / "archive").rglob("*.html")), demo.stdout
    # The demo read the installed tables, not a checkout's.
    written = (tmp_path / "demo" / "config.toml").read_text()
    assert str(ROOT) not in written
