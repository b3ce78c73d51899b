"""A disgrace reads why in words, on the event line and on the turn sheet (EG honour:
templates/engarde/events.md.j2 `disgrace_text`), never the engine's code."""

from __future__ import annotations

import re
from pathlib import Path

from tests.engarde.test_templates_purity import ENV

ENGINE = Path(__file__).resolve().parents[2] / "moderator" / "games" / "engarde"
# honour.disgrace(m, who, "<reason>", ...) wherever it is called
_CALL = re.compile(r"disgrace\(\s*m,\s*\w+,\s*\"([a-z_]+)\"")


def disgrace_reasons() -> set[str]:
    return {r for path in ENGINE.rglob("*.py") for r in _CALL.findall(path.read_text())}


def test_every_disgrace_reason_has_words() -> None:
    reasons = disgrace_reasons()
    assert {"debt", "conviction", "divorced"} <= reasons  # the scan finds them
    events = ENV.get_template("engarde/events.md.j2").module
    for reason in sorted(reasons):
        text = str(events.disgrace_text(reason)).strip()
        assert text != reason.replace("_", " "), reason
        event = {"id": "honour.disgraced", "actor": "athos",
                 "args": {"reason": reason, "sl_after": 3, "club": None}}
        line = str(events.honour_disgraced(event, {"athos": "Athos"})).strip()
        assert f"Athos is disgraced ({text}) and falls to SL 3." == line
