"""Crash points: where the crash-safety tests kill the service on purpose.

`crash_point("intake.raw-stored")` does nothing unless the environment variable
``MODERATOR_CRASH_AT`` names that point, in which case the process dies at once with
SIGKILL, exactly as if the machine had lost power there.  Tests start the real
service in a subprocess with the variable set, then restart it without, and check
that nothing was lost and nothing was done twice.
"""

from __future__ import annotations

import os
import signal

ENV = "MODERATOR_CRASH_AT"


def crash_point(name: str) -> None:
    if os.environ.get(ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)
