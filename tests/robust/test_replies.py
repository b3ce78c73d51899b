"""Issue 13, "replies as people write them": top-posted, bottom-posted and interleaved
replies to a receipt yield the player's new lines; attributions in the major clients'
languages, separators and mobile signatures never leak into the orders."""

from __future__ import annotations

import pytest

from moderator.intake.quotes import strip_quotes_and_signature

from support import cpu_cost

NEW = "WEEK 1: PRACTICE sabre\nWEEK 2: CAROUSE"
QUOTE = "> Orders v1 for Jacques de Lyon\n>\n> WEEK 1: PRACTICE rapier"


@pytest.mark.parametrize("attribution", [
    "On Tue, 1 Dec 2026 at 12:00, Moderator <moderator@paris.example> wrote:",
    "On Tue, Dec 1, 2026 at 12:00 PM Moderator of paris <\nmoderator+paris@paris.example> wrote:",
    "Am Di., 1. Dez. 2026 um 12:00 Uhr schrieb Moderator <moderator@paris.example>:",
    "Le mar. 1 déc. 2026 à 12:00, Moderator <moderator@paris.example> a écrit :",
    "El mar, 1 dic 2026 a las 12:00, Moderator (<moderator@paris.example>) escribió:",
    "Il giorno mar 1 dic 2026 alle ore 12:00 Moderator <moderator@paris.example> ha scritto:",
    "Op di 1 dec. 2026 om 12:00 schreef Moderator <moderator@paris.example>:",
    "Den tis 1 dec. 2026 kl 12:00 skrev Moderator <moderator@paris.example>:",
    "W dniu 1.12.2026 o 12:00 Moderator <moderator@paris.example> napisał(a):",
    "01.12.2026 12:00 пользователь \"Moderator\" <moderator@paris.example> написал:",
    "вт, 1 дек. 2026 г. в 12:00, Moderator <moderator@paris.example>:\n",
    "2026/12/1 Moderator <moderator@paris.example>",
    "--- On Tue, 12/1/26, Moderator <moderator@paris.example> wrote:",
    "2026年12月1日(火) 12:00 Moderator <moderator@paris.example>:",
])
@pytest.mark.parametrize("layout", ["top", "bottom", "inline"])
def test_every_layout_yields_the_new_lines(attribution: str, layout: str) -> None:
    attribution = attribution.strip()
    if layout == "top":
        text = f"{NEW}\n\n{attribution}\n{QUOTE}\n"
    elif layout == "bottom":
        text = f"{attribution}\n{QUOTE}\n\n{NEW}\n"
    else:
        first, second = NEW.split("\n")
        text = f"{attribution}\n> question one?\n{first}\n> question two?\n\n{second}\n> end\n"
    kept, notes = strip_quotes_and_signature(text)
    assert [line for line in kept.split("\n") if line] == NEW.split("\n"), (layout, kept)
    assert any("quoted" in note for note in notes)


@pytest.mark.parametrize("separator", [
    "-----Original Message-----\nFrom: Moderator\nSent: Tuesday\nTo: Jacques\nSubject: Orders",
    "----- Original Message -----\nFrom: Moderator <moderator@paris.example>\nTo: Jacques",
    "--- Original message follows.\nThe moderator read your orders.",
    "---------- Forwarded message ----------\nFrom: Moderator\nDate: Tue\nSubject: Orders",
    "Begin forwarded message:\n\nFrom: Moderator\nSubject: Orders",
    "-----Ursprüngliche Nachricht-----\nVon: Moderator\nGesendet: Dienstag",
    "________________________________\nFrom: Moderator <moderator@paris.example>\n"
    "Sent: Tuesday, December 1, 2026 12:00\nTo: Jacques\nSubject: Orders v1",
    "________________________________\nDe : Moderator\nEnvoyé : mardi 1 décembre 2026\n"
    "À : Jacques\nObjet : Orders v1",
    "From: Moderator <moderator@paris.example>\nDate: Tue, 1 Dec 2026 12:00\n"
    "To: jacques@lyon.example\nSubject: Orders v1",
    "-------- Message original --------\nDe : Moderator",
])
def test_an_unquoted_original_ends_the_new_text(separator: str) -> None:
    text = f"{NEW}\n\n{separator}\n\nWEEK 1: PRACTICE rapier\nWEEK 3: BAWDYHOUSE\n"
    assert strip_quotes_and_signature(text)[0] == NEW


@pytest.mark.parametrize("signature", [
    "Sent from my iPhone", "Sent from my Samsung Galaxy smartphone.", "Von meinem iPhone gesendet",
    "Envoyé de mon iPad", "Enviado desde mi iPhone", "Inviato da iPhone",
    "Get Outlook for Android", "Sent from Yahoo Mail on Android", "-- \nJacques de Lyon\nLyon",
    "Thanks,\nJacques", "Viele Grüße\nJörg",
])
def test_signatures_and_sign_offs_are_not_orders(signature: str) -> None:
    assert strip_quotes_and_signature(f"{NEW}\n\n{signature}\n")[0] == NEW


def test_a_sentence_that_starts_like_a_signature_is_kept() -> None:
    text = f"{NEW}\nSent from my desk, because my phone is broken."
    assert strip_quotes_and_signature(text)[0] == text


def test_a_forward_with_nothing_above_it_keeps_what_it_forwards() -> None:
    text = "---------- Forwarded message ----------\nFrom: me\nDate: Tue\n\n" + NEW
    assert strip_quotes_and_signature(text)[0] == NEW


def test_the_cost_is_linear_in_the_text() -> None:
    text = ("On " + "x" * 20_000 + " wrote:\n" + "> " + "y" * 5_000 + "\n") * 200 + NEW
    assert cpu_cost([lambda: strip_quotes_and_signature(text)] * 3, 0.5) <= 0.5
    kept, _ = strip_quotes_and_signature(text)
    assert kept.endswith(NEW) and ">" not in kept  # an over-long line is text, not a marker
