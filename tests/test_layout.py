"""The house rules of the code, checked (README: Where things are).

* the import contracts in pyproject.toml hold (import-linter): the layers, pure engines, and
  no import cycle between the siblings of any package;
* no function-local import of our own modules dodges a cycle: the only ones allowed are the
  command line's on-demand imports, which keep `moderator --help` fast;
* a function over 60 lines says why, in a comment starting ``# Long:`` in its first lines;
* a module stays within 400 lines (`LONGEST_MODULE`), but for those `TOO_LONG` names
  (each to be split along its seams).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "moderator"
LONGEST = 60
LONGEST_MODULE = 400
TOO_LONG: tuple[str, ...] = ()  # relative to moderator/
ON_DEMAND_IMPORTS = ("cli",)  # folders whose function-local imports keep start-up fast


def _modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def test_the_import_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(lint), "--no-cache"], capture_output=True, text=True,
                         cwd=PACKAGE.parent, check=False)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_no_function_local_import_of_our_own_modules() -> None:
    found = []
    for path, tree in _modules():
        if path.relative_to(PACKAGE).parts[0] in ON_DEMAND_IMPORTS:
            continue
        for function in _functions(tree):
            for node in ast.walk(function):
                module = getattr(node, "module", None) or ""
                names = [a.name for a in getattr(node, "names", [])] \
                    if isinstance(node, ast.Import) else []
                if (isinstance(node, ast.ImportFrom) and (module.startswith("moderator")
                                                           or node.level > 0)) \
                        or any(n.startswith("moderator") for n in names):
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert not found, "imports inside functions (move them to the top): " + ", ".join(found)


def test_a_long_function_says_why() -> None:
    unexplained = []
    for path, tree in _modules():
        lines = path.read_text(encoding="utf-8").splitlines()
        for function in _functions(tree):
            length = (function.end_lineno or function.lineno) - function.lineno + 1
            if length <= LONGEST:
                continue
            head = lines[function.lineno - 2:function.lineno + 8]
            if not any(line.strip().startswith("# Long:") for line in head):
                unexplained.append(f"{path.relative_to(PACKAGE.parent)}:{function.lineno} "
                                   f"{function.name} ({length} lines)")
    assert not unexplained, "functions over 60 lines without '# Long: why': " \
        + ", ".join(unexplained)



def test_a_module_stays_within_the_limit() -> None:
    long = []
    for path, _tree in _modules():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > LONGEST_MODULE and path.relative_to(PACKAGE).as_posix() not in TOO_LONG:
            long.append(f"{path.relative_to(PACKAGE.parent)} ({lines} lines)")
    assert not long, f"modules over {LONGEST_MODULE} lines: " + ", ".join(long)
