"""Canonical JSON: the one serialisation used for stored state, orders and events.

Sorted keys and fixed separators make equal data produce equal bytes, which is what
`turn rerun` compares.
"""

from __future__ import annotations

import json
from typing import Any


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)
