"""Player commands by mail through the real intake (issue 11, item 3): each one's reply,
what it changes, and its refusal for a wrong password or a stranger."""

from __future__ import annotations

import base64
import shlex
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine
from sqlmodel import Session, select

from moderator.cli import cli
from moderator.desk import admin
from moderator.desk.admin import add_address
from moderator.intake.commands import find_commands
from moderator.intake.process import process_message
from moderator.settings.config import Config, load_config
from moderator.store import repo
from moderator.store.db import open_store, session_scope
from moderator.store.models import Outbox, Player, Submission
from moderator.store.passwords import verify_password
from moderator.turn.deadlines import set_deadlines
from moderator.turn.run import run_turn

from support import make_game, order_mail, write_config

JACQUES = "jacques@lyon.example"
ORDERS = "PASSWORD: rapier\nWEEK 1: PRACTICE rapier\n"


def configured(tmp_path: Path, settings: str) -> tuple[Engine, Config]:
    path = write_config(tmp_path)
    path.write_text(path.read_text() + f"[games.paris]\n{settings}\n")
    config = load_config(path)
    return open_store(config.database_url), config


def send(db: Engine, config: Config, body: str, sender: str = JACQUES,
         subject: str = "[paris] commands") -> str:
    return process_message(db, config, order_mail(sender, body, subject=subject)).status


def mails(db: Engine, kind: str | None = None, to: str | None = None) -> list[Outbox]:
    with Session(db) as session:
        query = select(Outbox).order_by(Outbox.id)  # type: ignore[arg-type]
        rows = list(session.exec(query))
    return [o for o in rows if (kind is None or o.kind == kind) and (to is None or o.to_addr == to)]


def text_of(row: Outbox) -> str:
    part = message_from_bytes(row.raw, policy=policy.default).get_body(("plain",))
    assert part is not None
    return part.get_content()  # type: ignore[no-any-return,attr-defined]


def reply(db: Engine) -> str:
    return text_of(mails(db, "command-reply")[-1])


def count(db: Engine, model: type) -> int:
    with Session(db) as session:
        return len(session.exec(select(model)).all())


def invoke(config: Config, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--config", str(config.path), *args])
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_find_commands_one_a_line() -> None:
    text = "Hi\nPASSWORD: rapier\nHELP\nresend turn 2\nABSENCE UNTIL 2027-01-10\nPASSWORD newer\n"
    found, lines = find_commands(text)
    assert [(c.name, c.argument) for c in found] == [
        ("HELP", ""), ("RESEND", "turn 2"), ("ABSENCE", "2027-01-10"), ("PASSWORD", "newer")]
    assert lines == {3, 4, 5, 6}
    assert find_commands("PASSWORD rapier\nJOIN CLUB Red Phillips\nCHECK in later")[0] == ()


@pytest.mark.parametrize("command", ["HELP", "ORDERS", "CHECK\nWEEK 1: PRACTICE sabre",
                                     "RESEND", "STATUS", "ABSENCE UNTIL 2099-01-01",
                                     "PASSWORD stolen"])
def test_every_command_is_refused_for_a_wrong_password_or_a_stranger(
        db: Engine, config: Config, command: str) -> None:
    make_game(db, config)
    before = len(mails(db))
    assert send(db, config, f"PASSWORD: wrong\n{command}\n") == "refused"
    assert send(db, config, f"PASSWORD: rapier\n{command}\n", sender="spy@evil.example") \
        == "refused"
    sent = mails(db)[before:]
    assert [o.kind for o in sent] == ["refusal", "refusal"]
    assert {o.to_addr for o in sent} == {JACQUES, "spy@evil.example"}
    with Session(db) as session:
        jacques = session.exec(select(Player).where(Player.email == JACQUES)).one()
    assert verify_password("rapier", jacques.password_hash) and jacques.absent_until is None


def test_help_mails_the_guide_the_order_language_and_a_form(db: Engine, config: Config) -> None:
    make_game(db, config)
    assert send(db, config, "Bonjour,\nPASSWORD: rapier\nHELP\nMerci, Jacques\n") == "accepted"
    text = reply(db)
    assert "The player's guide" in text and "ABSENCE UNTIL" in text  # docs/players-guide.md
    assert "En Garde! orders" in text and "WEEK 1:" in text
    assert "CHARACTER: Jacques de Lyon" in text  # his own fresh form
    assert count(db, Submission) == 0


def test_orders_reads_back_the_orders_that_stand(db: Engine, config: Config) -> None:
    make_game(db, config)
    assert send(db, config, "PASSWORD: rapier\nORDERS\n") == "accepted"
    assert "no orders standing" in reply(db)
    send(db, config, ORDERS)
    send(db, config, "PASSWORD: rapier\nORDERS\n")
    assert "Your orders v1 stand" in reply(db) and "WEEK 1: PRACTICE rapier" in reply(db)
    assert count(db, Submission) == 1


def test_check_answers_with_a_receipt_and_stores_nothing(db: Engine, config: Config) -> None:
    make_game(db, config)
    send(db, config, ORDERS)
    assert send(db, config, "PASSWORD: rapier\nCHECK\nWEEK 1: PRACTICE sabr\n") == "accepted"
    receipt = mails(db, "receipt")[-1]
    assert receipt.subject.startswith("[paris] Orders checked, not stored (1 error)")
    assert "did you mean sabre" in text_of(receipt) and "unchanged (v1)" in text_of(receipt)
    assert "X-Moderator-Submission" not in receipt.raw.decode()
    assert count(db, Submission) == 1


def test_orders_beside_commands_are_stored_too(db: Engine, config: Config) -> None:
    make_game(db, config)
    assert send(db, config, ORDERS + "STATUS\n") == "accepted"
    assert count(db, Submission) == 1 and "STATUS" in reply(db)
    assert mails(db, "receipt")[-1].subject.startswith("[paris] Orders v1 stand")


def test_orders_beside_new_orders_reads_back_what_this_mail_made_stand(
        db: Engine, config: Config) -> None:
    """``ORDERS`` in the mail that sends new orders answers with the orders that stand
    after it (v2, its own), not those that stood before it (v1); ``STATUS`` beside orders
    counts them too.  The reply still comes before the receipt."""
    make_game(db, config)
    send(db, config, ORDERS)
    assert send(db, config, "PASSWORD: rapier\nORDERS\nSTATUS\nWEEK 1: PRACTICE sabre\n") \
        == "accepted"
    text = reply(db)
    assert "Your orders v2 stand" in text and "WEEK 1: PRACTICE sabre" in text, text
    assert "PRACTICE rapier" not in text
    assert "Your orders: v2 stand." in text and "Orders received from: Jacques de Lyon." in text
    assert [o.kind for o in mails(db)[-2:]] == ["command-reply", "receipt"]
    assert count(db, Submission) == 2


def test_resend_goes_only_to_the_registered_address(db: Engine, config: Config) -> None:
    make_game(db, config)
    with session_scope(db) as session:
        add_address(session, "paris", JACQUES, "jacques@work.example")
    label = run_turn(db, config, "paris").label
    before = len(mails(db))
    assert send(db, config, f"PASSWORD: rapier\nRESEND {label}\n",
                sender="jacques@work.example") == "accepted"
    sent = mails(db)[before:]
    assert {o.to_addr for o in sent} == {JACQUES}
    assert sorted(o.kind for o in sent) == ["command-reply", "gazette-resent",
                                            "turnsheet-resent"]
    assert "Turn sheet for Jacques de Lyon" in reply(db)
    send(db, config, "PASSWORD: rapier\nRESEND TURN 7\n")
    assert (f"Not done: No turn of paris was published as 'TURN 7'. Write RESEND for the "
            f"last turn, or RESEND and the turn's name as its gazette prints it, e.g. "
            f"RESEND {label} (turns published: {label})." in " ".join(reply(db).split()))


def _dwtk_game(db: Engine, config: Config) -> None:
    with session_scope(db) as session:
        admin.create_game(session, config, "fandonia", "dwtk", seed=3)
        for who in ("one", "two", "three"):
            admin.add_player(session, config, "fandonia", f"{who}@fandonia.example",
                             who.title(), password="secret")


def _dwtk(db: Engine, config: Config, line: str) -> str:
    send(db, config, f"PASSWORD: secret\n{line}\n", sender="one@fandonia.example",
         subject="[fandonia] commands")
    return reply(db)


def test_resend_turn_n_is_the_turn_its_gazette_calls_turn_n(db: Engine, config: Config) -> None:
    """Down with the King: the set-up (DWTK 3, Prepare for Play) is run as the first turn
    and printed as "The court assembles"; the first turn of play, run second, is printed
    as "Turn 1".  ``RESEND TURN 1`` sends what was printed as "Turn 1" (before: the
    set-up, the internal turn 1); a name no gazette had is refused with those that exist."""
    _dwtk_game(db, config)
    assert run_turn(db, config, "fandonia").label == "The court assembles"
    assert run_turn(db, config, "fandonia").label == "Turn 1"
    before = len(mails(db))
    assert "Sent again to one@fandonia.example" in _dwtk(db, config, "RESEND TURN 1")
    resent = [o.subject for o in mails(db)[before:] if o.kind.endswith("-resent")]
    assert len(resent) == 2 and all(s.endswith("Turn 1 (resent)") for s in resent), resent
    _dwtk(db, config, "resend the court assembles")
    assert mails(db, "gazette-resent")[-1].subject.endswith("The court assembles (resent)")
    refused = _dwtk(db, config, "RESEND TURN 2")
    assert "No turn of fandonia was published as 'TURN 2'" in refused
    assert "(turns published: The court assembles, Turn 1)" in refused
    assert "Which turn?" in _dwtk(db, config, "RESEND TURN")


@pytest.mark.parametrize("kind", ["engarde", "dwtk", "fief"])
def test_status_heads_with_the_open_turns_printed_name_in_every_game(
        db: Engine, config: Config, kind: str) -> None:
    """En Garde! months, DWTK's "The court assembles", Fief's "The muster": the name the
    turn's gazette will carry, no internal turn number beside it."""
    name, sender, password = _game_of_kind(db, config, kind)
    send(db, config, f"PASSWORD: {password}\nSTATUS\n", sender=sender,
         subject=f"[{name}] commands")
    with Session(db) as session:
        label = repo.open_turn(session, repo.game_by_name(session, name)).label
    assert f"== STATUS ==\n\n{name}: {label}, active.\n" in reply(db)


def test_status_names_turns_as_the_players_see_them(db: Engine, config: Config) -> None:
    """STATUS names the open turn and the last one published by their printed names:
    "Turn 2" in Down with the King (the internal number is 3, the set-up counting)."""
    _dwtk_game(db, config)
    run_turn(db, config, "fandonia")
    run_turn(db, config, "fandonia")
    text = _dwtk(db, config, "STATUS")
    assert text.count("fandonia: Turn 2, active.") == 1, text
    assert "Last turn published: Turn 1 (RESEND sends it again)." in text
    assert "turn 3" not in text.lower()


def test_status_gives_deadlines_and_who_sent(db: Engine, config: Config) -> None:
    make_game(db, config)
    with session_scope(db) as session:
        set_deadlines(session, repo.game_by_name(session, "paris"),
                      datetime(2027, 1, 10, 18, tzinfo=UTC), now=datetime(2026, 12, 1, tzinfo=UTC))
    send(db, config, ORDERS)
    send(db, config, "PASSWORD: panache\nSTATUS\n", sender="cyrano@bergerac.example")
    text = reply(db)
    assert "Orders due: " in text and "2027" in text and "Your orders: none yet." in text
    assert "Orders received from: Jacques de Lyon." in text
    assert "Not yet: Cyrano de Bergerac, Porthos du Vallon." in text


@pytest.mark.parametrize(("zone", "shown"), [
    ("Asia/Kolkata", "Orders due: Sunday 10 January 2027, 23:30 IST (UTC+05:30)"),
    ("Asia/Dubai", "Orders due: Sunday 10 January 2027, 22:00 UTC+04:00"),
    ("Europe/Paris", "Orders due: Sunday 10 January 2027, 19:00 CET\n"),
])
def test_status_adds_the_utc_offset_where_the_zone_s_abbreviation_could_mislead(
        db: Engine, config: Config, zone: str, shown: str) -> None:
    """IST is India's, Ireland's and Israel's; Dubai has no abbreviation (``+04``):
    the offset makes the deadline one moment for every reader (`moderator.clock`)."""
    make_game(db, config)
    with session_scope(db) as session:
        game = repo.game_by_name(session, "paris")
        game.time_zone = zone
        set_deadlines(session, game, datetime(2027, 1, 10, 18, tzinfo=UTC),
                      now=datetime(2026, 12, 1, tzinfo=UTC))
    send(db, config, "PASSWORD: rapier\nSTATUS\n")
    assert shown in reply(db)


def test_status_keeps_who_sent_private_when_the_game_says_so(tmp_path: Path) -> None:
    db, config = configured(tmp_path, "status_who_sent = false")
    make_game(db, config)
    send(db, config, "PASSWORD: panache\nWEEK 1: PRACTICE rapier\n",
         sender="cyrano@bergerac.example")
    send(db, config, "PASSWORD: rapier\nSTATUS\n")
    text = reply(db)
    assert "Orders due" in text and "received from" not in text and "Cyrano" not in text
    assert "Orders received: 1 of 3." in text


def test_absence_within_the_cap(db: Engine, config: Config) -> None:
    make_game(db, config)
    soon = (datetime.now(UTC) + timedelta(days=5)).strftime("%Y-%m-%d")
    send(db, config, f"PASSWORD: rapier\nABSENCE UNTIL {soon}\n")
    assert "You are absent until" in reply(db)
    with Session(db) as session:
        assert session.exec(select(Player).where(Player.email == JACQUES)).one().absent_until
    far = (datetime.now(UTC) + timedelta(days=90)).strftime("%Y-%m-%d")
    send(db, config, f"PASSWORD: rapier\nABSENCE UNTIL {far}\n")
    assert "Not done: paris allows absences of at most 28 days" in reply(db)
    send(db, config, "PASSWORD: rapier\nABSENCE UNTIL next week\n")
    assert "is not a date" in reply(db)


def test_absence_moves_the_deadline_when_the_game_says_so(tmp_path: Path) -> None:
    db, config = configured(tmp_path, "absence_moves_deadline = true")
    make_game(db, config)
    now = datetime.now(UTC)
    with session_scope(db) as session:
        set_deadlines(session, repo.game_by_name(session, "paris"), now + timedelta(days=2))
    back = (now + timedelta(days=6)).strftime("%Y-%m-%d")
    send(db, config, f"PASSWORD: rapier\nABSENCE UNTIL {back}\n")
    assert "moves to" in reply(db)
    with Session(db) as session:
        turn = repo.open_turn(session, repo.game_by_name(session, "paris"))
    assert turn.deadline is not None and turn.deadline.strftime("%Y-%m-%d") == back


def test_absence_refused_when_the_game_allows_none(tmp_path: Path) -> None:
    db, config = configured(tmp_path, "absences = false")
    make_game(db, config)
    send(db, config, "PASSWORD: rapier\nABSENCE UNTIL 2099-01-01\n")
    assert "does not allow absences" in reply(db)


def test_password_change_and_the_gms_reset(db: Engine, config: Config) -> None:
    make_game(db, config)
    send(db, config, "PASSWORD: rapier\nPASSWORD epee2\n")
    assert "Your password is changed" in reply(db)
    assert send(db, config, ORDERS) == "refused"
    assert send(db, config, ORDERS.replace("rapier\n", "epee2\n", 1)) == "accepted"
    invoke(config, "player", "password", "paris", JACQUES, "--reset", "--reason", "lost it",
           "--no-send")
    notice = mails(db, "notice", JACQUES)[-1]
    new = text_of(notice).split("PASSWORD: ")[1].split()[0]
    assert send(db, config, ORDERS.replace("rapier\n", "epee2\n", 1)) == "refused"
    assert send(db, config, ORDERS.replace("rapier\n", f"{new}\n", 1)) == "accepted"


@pytest.mark.parametrize("line", ["NEW PASSWORD epee2.", "SET PASSWORD: epee2!",
                                  "PASSWORD epee2,"])
def test_a_new_password_leaves_out_the_sentence_punctuation_after_it(
        db: Engine, config: Config, line: str) -> None:
    """Players write sentences: ``NEW PASSWORD epee2.`` sets ``epee2`` (docs/players-guide.md,
    Commands), and the reply, kept in the outbox, gives its length and what was left out,
    never the password (issue 16, goal 4).  A ``PASSWORD: epee2.`` line is read the same
    way."""
    make_game(db, config)
    send(db, config, f"PASSWORD: rapier\n{line}\n")
    text = reply(db)
    assert send(db, config, ORDERS.replace("rapier\n", "epee2\n", 1)) == "accepted"
    assert "Your password is changed: the new one has 5 characters (" in " ".join(text.split())
    assert " after it is not part of it)." in " ".join(text.split())
    assert b"epee2" not in mails(db, "command-reply")[-1].raw
    assert send(db, config, ORDERS.replace("rapier\n", "epee2.\n", 1)) == "accepted"
    assert send(db, config, ORDERS) == "refused"
    send(db, config, "PASSWORD: epee2\nNEW PASSWORD ...\n")
    assert "Not done: a password needs at least 4 characters" in reply(db)


def test_join_open_creates_the_character_and_mails_the_welcome(db: Engine,
                                                               config: Config) -> None:
    make_game(db, config)
    assert send(db, config, "JOIN GAME AS Aramis d'Herblay\n", sender="aramis@example.org",
                subject="[paris] join") == "accepted"
    [welcome] = mails(db, "welcome", "aramis@example.org")
    assert "Orders due:" in text_of(welcome) and "HELP" in text_of(welcome)
    assert "joins paris" in text_of(mails(db, "command-reply")[-1])
    assert send(db, config, "JOIN GAME\n", sender="aramis@example.org",
                subject="[paris] join") == "refused"  # registered now: the password check
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        assert repo.player_by_address(session, game, "aramis@example.org") is not None


# An address RFC 5322 allows (backquote, ampersand, bar and dollar are "atext") that a
# shell reads as commands if a GM pastes the line his notice suggests.
SHELL_ADDRESS = "a`reboot`&b|c$d@evil.example"


def test_the_join_request_notice_quotes_the_address_for_the_shell(tmp_path: Path) -> None:
    """The GM's notice of a JOIN request suggests the command lines that decide it; the
    sender's address went into them bare, so pasting ``player approve`` ran what a
    stranger put between backquotes.  It is quoted: the shell reads it as one word."""
    db, config = configured(tmp_path, 'joining = "approval"')
    make_game(db, config)
    assert send(db, config, "JOIN GAME AS Mordaunt\n", sender=f"<{SHELL_ADDRESS}>",
                subject="[paris] x") == "accepted"
    text = text_of(mails(db, "gm-notice")[-1])
    for verb in ("approve", "reject"):
        line = next(line for line in text.splitlines() if f"player {verb}" in line)
        assert line.strip() == f"moderator player {verb} paris '{SHELL_ADDRESS}' --reason ..."
        assert shlex.split(line) == ["moderator", "player", verb, "paris", SHELL_ADDRESS,
                                     "--reason", "..."]


def test_join_with_approval_waits_for_the_gm(tmp_path: Path) -> None:
    db, config = configured(tmp_path, 'joining = "approval"')
    make_game(db, config)
    send(db, config, "JOIN GAME AS Aramis\n", sender="aramis@example.org", subject="[paris] x")
    send(db, config, "JOIN GAME AS Mordaunt\n", sender="m@example.org", subject="[paris] x")
    assert "waits for the GM's approval" in reply(db)
    assert mails(db, "gm-notice")[-1].subject == "[paris] Mordaunt <m@example.org> asks to join"
    assert not mails(db, "welcome", "aramis@example.org")
    listed = invoke(config, "player", "requests", "paris")
    assert "Aramis <aramis@example.org>" in listed and "Mordaunt" in listed
    invoke(config, "player", "approve", "paris", "aramis@example.org", "--reason", "ok",
           "--no-send")
    invoke(config, "player", "reject", "paris", "m@example.org", "--reason", "full",
           "--no-send")
    assert mails(db, "welcome", "aramis@example.org")
    assert "did not accept your request to join: full" in text_of(mails(db, "notice",
                                                                         "m@example.org")[-1])
    assert "No join requests" in invoke(config, "player", "requests", "paris")
    with Session(db) as session:
        game = repo.game_by_name(session, "paris")
        assert repo.player_by_address(session, game, "m@example.org") is None


def test_join_closed_refuses_politely(tmp_path: Path) -> None:
    db, config = configured(tmp_path, 'joining = "closed"')
    with session_scope(db) as session:  # `player add` refuses a closed game too
        admin.create_game(session, config, "paris", "engarde", seed=1)
    assert send(db, config, "JOIN GAME\n", sender="aramis@example.org",
                subject="[paris] join") == "refused"
    [refusal] = mails(db, "refusal")
    assert "paris is not taking new players" in text_of(refusal)
    assert not mails(db, "welcome")


def _game_of_kind(db: Engine, config: Config, kind: str) -> tuple[str, str, str]:
    """A game of each kind with two players: (game, a player's address, his password)."""
    if kind == "engarde":
        make_game(db, config)
        return "paris", JACQUES, "rapier"
    name = {"dwtk": "fandonia", "fief": "england"}[kind]
    with session_scope(db) as session:
        admin.create_game(session, config, name, kind, seed=3)
        for who in ("one", "two"):
            admin.add_player(session, config, name, f"{who}@{name}.example", who.title(),
                             password="secret")
    return name, f"one@{name}.example", "secret"


@pytest.mark.parametrize("kind", ["engarde", "dwtk", "fief"])
@pytest.mark.parametrize(("line", "answer"), [
    ("HELP!", "HELP: the player's guide"),
    ("status?", "Orders due:"),
    ("RESEND TURN x", "has not published a turn yet"),
    ("resend turn", "has not published a turn yet"),
    ("ABSENCE UNTIL", "no date given: write ABSENCE UNTIL 2027-01-10"),
    ("ABSENCE 2099-01-01", "allows absences of at most"),
])
def test_a_command_with_punctuation_or_a_wrong_argument_is_answered_with_a_hint(
        db: Engine, config: Config, kind: str, line: str, answer: str) -> None:
    """Not read as an unknown order (with the order language's hint, or "did you mean
    LEND?"): the command is understood, or its reply says how to write it."""
    name, sender, password = _game_of_kind(db, config, kind)
    assert send(db, config, f"PASSWORD: {password}\n{line}\n", sender=sender,
                subject=f"[{name}] commands") == "accepted"
    assert answer in reply(db)
    assert not mails(db, "receipt") and count(db, Submission) == 0


def test_check_twice_in_one_mail_answers_once(db: Engine, config: Config) -> None:
    make_game(db, config)
    assert send(db, config, "PASSWORD: rapier\nCHECK\nWEEK 1: PRACTICE rapier\nCHECK\n") \
        == "accepted"
    assert len(mails(db, "receipt")) == 1 and count(db, Submission) == 0


def test_join_names_its_game_on_the_line(db: Engine, config: Config) -> None:
    """``JOIN GAME paris`` to the plain address with no tag in the subject: the game the
    line names, not a refusal for an unknown game (nor the game of the subject's tag)."""
    make_game(db, config)
    assert send(db, config, "JOIN GAME paris AS Aramis d'Herblay\n",
                sender="aramis@example.org", subject="may I join?") == "accepted"
    assert "Aramis d'Herblay joins paris" in reply(db)
    assert send(db, config, "JOIN GAME london\n", sender="m@example.org",
                subject="[paris] join") == "refused"
    assert "There is no game london here." in text_of(mails(db, "refusal")[-1])


_INJECTION = base64.b64encode(b"=?utf-8?q?x=0D=0ABcc:_x?=").decode()


@pytest.mark.parametrize(("line", "from_name", "why"), [
    ("JOIN GAME AS Jacques de Lyon\u202e", "", "U+202E"),  # a bidi override
    ("JOIN GAME AS J\u0430cques", "", "U+0430"),  # a Cyrillic a that looks Latin
    ("JOIN GAME AS Bo <b>x</b>", "", "'<'"),
    ("JOIN GAME AS " + "A" * 41, "", "at most 40"),
    ("JOIN GAME AS jacques-DE-lyon", "", "reads as 'Jacques de Lyon'"),
    ("JOIN GAME AS Jacques de Lyón", "", "reads as 'Jacques de Lyon'"),
    # From the From line (encoded there): a terminal escape, an invisible space, a
    # literal encoded word that would decode to a line break in a header
    ("JOIN GAME", "=?utf-8?q?Evil=1B[31m_Red?=", "'\\x1b'"),
    ("JOIN GAME", "=?utf-8?q?Ara=E2=80=8Bmis?=", "U+200B"),
    ("JOIN GAME", f"=?utf-8?b?{_INJECTION}?=", "begins with a letter"),
])
def test_join_refuses_a_name_that_is_not_plain_text_or_is_another_characters(
        db: Engine, config: Config, line: str, from_name: str, why: str) -> None:
    """The name rule (docs/players-guide.md, `desk.names`): a name a player chooses holds
    Latin letters, digits, single spaces and ' - . only, at most 40 characters, and never
    reads as another character's name; the refusal says why and how to write it, and
    no character is made."""
    make_game(db, config)
    raw = order_mail("aramis@example.org", line + "\n", subject="[paris] join")
    if from_name:
        raw = raw.replace(b"From: aramis@example.org",
                          f"From: {from_name} <aramis@example.org>".encode())
    assert process_message(db, config, raw).status == "refused"
    text = text_of(mails(db, "refusal")[-1])
    assert "cannot be a character's name" in text or "reads as" in text
    assert why in text and "JOIN GAME AS Jacques d'Artagnan" in text
    assert not mails(db, "welcome", "aramis@example.org")
    with Session(db) as session:
        assert repo.player_by_address(session, repo.game_by_name(session, "paris"),
                                      "aramis@example.org") is None


def test_a_gm_cannot_add_a_second_character_of_the_same_name(db: Engine,
                                                             config: Config) -> None:
    """`player add` too: two characters whose names read alike (case, accents, spaces)
    would be one name in every order that names them."""
    make_game(db, config)
    with session_scope(db) as session, \
            pytest.raises(admin.AdminError, match="reads as 'Jacques de Lyon'"):
        admin.add_player(session, config, "paris", "twin@lyon.example", "  JACQUES  de  LYÓN ")
