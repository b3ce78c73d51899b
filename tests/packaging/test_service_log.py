"""``serve --log-level`` and ``--log-format``: the service's lines filtered and shaped."""

from __future__ import annotations

import io
import json

from click.testing import CliRunner

from moderator.cli import cli
from moderator.cli.service import ServiceLog


def test_json_lines_at_the_level_and_above() -> None:
    out = io.StringIO()
    log = ServiceLog("warning", "json", out)
    log("info", "intake", "message", message_id="<a@b>")
    log("warning", "scheduler", "service.outage", since="2026-12-01T10:00:00+00:00")
    log("error", "outbox", "failed", error="ConnectionRefusedError()")
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(x["level"], x["event"]) for x in lines] == [("warning", "service.outage"),
                                                          ("error", "failed")]


def test_text_lines_are_one_readable_line_each() -> None:
    out = io.StringIO()
    log = ServiceLog("debug", "text", out)
    log("debug", "scheduler", "jobs.synced", added=2, jobs="deadline:paris@x reminder:paris@y")
    log("info", "scheduler", "turn.run", game="paris", turn=1, late=False, next_deadline=None)
    first, second = out.getvalue().splitlines()
    assert first.split(" ", 1)[1] == ('DEBUG   scheduler jobs.synced added=2 '
                                      'jobs="deadline:paris@x reminder:paris@y"')
    assert first.split(" ", 1)[0].endswith("Z")
    assert second.split(" ", 1)[1] == ("INFO    scheduler turn.run game=paris turn=1 "
                                       "late=false next_deadline=null")


def test_serve_offers_the_options() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert "--log-level [debug|info|warning|error]" in result.output
    assert "--log-format [json|text]" in result.output
    bad = CliRunner().invoke(cli, ["serve", "--log-level", "loud"])
    assert bad.exit_code == 2
