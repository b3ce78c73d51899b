"""Reaction orders: standing orders with conditions on event, actor and target (DWTK 14.1).

By email nobody can be asked "do you play a card?" when something happens, so every
reaction the rules allow (issue 5, item 5) is written in advance as

    IF <actor> <TRIGGER> <target> THEN <response>

e.g. ``IF ANYONE ASSASSINATES Sir Guy THEN PLAY Personal Guards``.  It is kept in the
player's state until ``WITHDRAW REACTION n`` and evaluated, in player order (14.1),
each time its trigger happens (`reactions.fire`).  This module holds the values, their
canonical syntax and the parser; it imports nothing from the court so that `state`
can store them.  Which card or choice fits which trigger is `CARD_USES` / `ACTS`; the
amounts come from ``data/dwtk/justice.toml`` ``[rules]``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from moderator.games.dwtk.frozen import fast_init, remembered_dict
from moderator.games.dwtk.orders.errors import IllegalOrderError, OrderSyntaxError, UnknownNameError

if TYPE_CHECKING:
    from moderator.games.dwtk.orders.names import Names

JSON = dict[str, Any]
ANYONE = "anyone"  # actor or target: no condition
OPPONENT = "opponent"  # actor: any player but me
ME = "me"  # actor: myself
MINE = "mine"  # target: my PC, any FAC or FARC of mine
# The words read where a player's name may stand (actor) or a character's (target): no
# player may be called one of them (`npcs.reserved_names`).
_ACTOR_WORDS = {"anyone": ANYONE, "anybody": ANYONE, "an opponent": OPPONENT,
                "opponent": OPPONENT, "i": ME, "me": ME}
_TARGET_WORDS = {"anyone": ANYONE, "anybody": ANYONE, "mine": MINE}
REACTION_WORDS = frozenset(word.title() for word in {*_ACTOR_WORDS, *_TARGET_WORDS})


class Trigger(StrEnum):
    """What a reaction waits for; the value is the verb of the order."""

    ASSASSINATES = "assassinates"  # 13.4.8, 21: an assassination attempt on the target
    EXPOSES = "exposes"  # 22: the target is the object of a scandal
    COURTS = "courts"  # 13.4.4: the Royal Favor Table for the target FARC
    DUELS = "duels"  # 19: the target fights a duel
    SEDUCES = "seduces"  # 13.4.15: a seduction of the target
    FREES = "frees"  # 13.4.10: an escape of the target
    EXTRADITES = "extradites"  # 25.2-25.6: an extradition of the target
    HUNTS = "hunts"  # 24.11, 25.8: a Manhunt roll for the target
    HEARS = "hears"  # 26: the target is sent to a hearing
    INTERROGATES = "interrogates"  # 27: the target is interrogated
    TRIES = "tries"  # 28: the target is tried
    BANISHES = "banishes"  # 29.1: the target is banished
    JAILS = "jails"  # 30.10: the target's prison death roll
    COUNSELS = "counsels"  # 15.7, 15.11: the target counsels the Monarch


# The base form after "IF I ..." (I ASSASSINATE, I BANISH, I TRY ...).
_BASE = {t: "try" if t is Trigger.TRIES else t.value[:-2] if t.value.endswith("shes")
         else t.value[:-1] for t in Trigger}


class Act(StrEnum):
    """The response of a reaction."""

    PLAY = "play"  # PLAY [n] <card> [+|-]: Event cards (14.5.9-14.5.18)
    HIDE = "hide"  # 24.2: into hiding instead of going to the hearing
    OBSTRUCT = "obstruct"  # 24.11: the player with a FAC Sheriff obstructs the Manhunt
    MODIFY = "modify"  # +|-: Ambassador ±1 (25.8), FAC Judge ±5 (28.3), counsel ±1 (15.7)
    VETO = "veto"  # 25.2, 25.5: a FAC Ambassador vetoes the extradition
    JUDGE = "judge"  # JUDGE <judge>: a PC/FAC Minister of Justice picks the Judge (28.2)
    CHOOSE = "choose"  # CHOOSE <country>: the country of banishment (29.1)
    PAY = "pay"  # 3 IP to avoid a duel (19.4); 1 IP for -2 on the prison roll (30.10)
    SEND = "send"  # SEND <henchman>: a henchman fights the duel in his place (19.3, 19.4)


@dataclass(frozen=True)
class CardUse:
    """What one Event card does at one trigger: a ``justice.toml`` amount, or a veto."""

    rule: str
    amount: str | None  # key in justice.toml [rules]; None: the card negates the action
    signed: bool = False  # the player says + or - (2.3)
    most: int | None = None  # at most this many of the card on one roll


CARD_USES: Mapping[Trigger, Mapping[str, CardUse]] = {
    Trigger.ASSASSINATES: {
        "personal_guards": CardUse("14.5.9", "assassination_personal_guards"),
        "palace_guards": CardUse("14.5.10", "assassination_palace_guards", signed=True),
        "treachery": CardUse("14.5.11", "assassination_treachery", most=1),
        "informer": CardUse("14.5.12", "assassination_informer", signed=True, most=1)},
    Trigger.EXPOSES: {"informer": CardUse("22", "scandal_informer")},
    Trigger.COURTS: {"treachery": CardUse("13.4.4", "favor_treachery", most=1)},
    Trigger.DUELS: {"treachery": CardUse("19.9", "duel_treachery", signed=True)},
    Trigger.SEDUCES: {"treachery": CardUse("14.5.11", None, most=1)},
    Trigger.FREES: {"prison_guards": CardUse("14.5.14", None, most=1),
                    "port_guards": CardUse("14.5.15", None, most=1)},
    Trigger.HUNTS: {"informer": CardUse("24.11", "manhunt_informer")},
    Trigger.HEARS: {"evidence": CardUse("26.2", "hearing_evidence"),
                    "alibi": CardUse("26.2", "hearing_alibi"),
                    "informer": CardUse("26.2", "hearing_informer", signed=True)},
    Trigger.INTERROGATES: {
        "treachery": CardUse("27.3", "interrogation_treachery", most=1),
        "prison_guards": CardUse("27.3", "interrogation_prison_guards", signed=True, most=1)},
    Trigger.TRIES: {"evidence": CardUse("28.4", "trial_evidence"),
                    "alibi": CardUse("28.4", "trial_alibi"),
                    "informer": CardUse("28.4", "trial_informer", signed=True)},
}

# The responses each trigger allows besides PLAY (with the rule that allows them).
ACTS: Mapping[Trigger, Mapping[Act, str]] = {
    Trigger.DUELS: {Act.PAY: "19.4", Act.SEND: "19.4"},
    Trigger.EXTRADITES: {Act.VETO: "25.2"},
    Trigger.HUNTS: {Act.OBSTRUCT: "24.11", Act.MODIFY: "25.8"},
    Trigger.HEARS: {Act.HIDE: "24.2"},
    Trigger.TRIES: {Act.JUDGE: "28.2", Act.MODIFY: "28.3"},
    Trigger.BANISHES: {Act.CHOOSE: "29.1"},
    Trigger.JAILS: {Act.PAY: "30.10"},
    Trigger.COUNSELS: {Act.MODIFY: "15.7"},
}
JUDGES = ("46", "51")  # 28.2


@fast_init  # a faster __init__, the same values (frozen.py)
@dataclass(frozen=True)
class Reaction:
    """One standing reaction order (``n`` is its number once stored, 0 before)."""

    trigger: Trigger
    act: Act
    actor: str = ANYONE  # anyone, opponent, me, or a player key
    target: str = ANYONE  # anyone, mine, pc, a noble id or a royal key
    card: str | None = None  # PLAY: the Event card kind
    count: int = 1  # PLAY: how many such cards (at most)
    sign: int = 0  # +1 / -1 where the player chooses the direction
    choice: str | None = None  # JUDGE: a Judge's id; CHOOSE: a country key; SEND: a noble
    n: int = 0

    def to_dict(self) -> JSON:
        # standing reactions: the same objects turn after turn (frozen.remembered_dict)
        return remembered_dict(self, Reaction._plain)

    def _plain(self) -> JSON:
        # _value_, not .value: the enum property is slow, and this runs for every
        # standing reaction of every player on every turn
        return {"trigger": self.trigger._value_, "act": self.act._value_,
                "actor": self.actor, "target": self.target, "card": self.card,
                "count": self.count, "sign": self.sign, "choice": self.choice, "n": self.n}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Reaction:
        """Reactions stand for many turns and are read back every turn: equal dicts give
        the same (immutable) value, built once."""
        try:
            key = tuple(d.items())
            found = _READ.get(key)
        except TypeError:  # an unhashable value: no memo
            return cls._read(d)
        if found is None:
            if len(_READ) >= _READ_KEPT:
                _READ.clear()
            found = _READ[key] = cls._read(d)
        return found

    @classmethod
    def _read(cls, d: Mapping[str, Any]) -> Reaction:
        trigger, act = _TRIGGERS.get(d["trigger"]), _ACTS.get(d["act"])
        return cls(trigger if trigger is not None else Trigger(d["trigger"]),
                   act if act is not None else Act(d["act"]), d.get("actor", ANYONE),
                   d.get("target", ANYONE), d.get("card"), int(d.get("count", 1)),
                   int(d.get("sign", 0)), d.get("choice"), int(d.get("n", 0)))


# Reaction.from_dict's memo (bounded) and enum members by value (faster than Enum(...)).
_READ: dict[tuple[tuple[str, Any], ...], Reaction] = {}
_READ_KEPT = 4096
_TRIGGERS: dict[str, Trigger] = {t.value: t for t in Trigger}
_ACTS: dict[str, Act] = {a.value: a for a in Act}


def _sign(sign: int) -> str:
    return {1: " +", -1: " -"}.get(sign, "")


def format_reaction(r: Reaction, n: Names) -> str:
    """The canonical line; `parse_reaction` reads it back to the same value."""
    actor = {ANYONE: "ANYONE", OPPONENT: "AN OPPONENT", ME: "I"}.get(r.actor) or \
        n.player(r.actor)
    verb = (_BASE[r.trigger] if r.actor == ME else r.trigger.value).upper()
    target = {ANYONE: "ANYONE", MINE: "MINE"}.get(r.target) or n.who(r.target)
    if r.act is Act.PLAY:
        count = f"{r.count} " if r.count > 1 else ""
        response = f"PLAY {count}{n.card(r.card or '')}{_sign(r.sign)}"
    elif r.act is Act.MODIFY:
        response = f"MODIFY{_sign(r.sign)}"
    elif r.act is Act.JUDGE:
        response = f"JUDGE {n.who(r.choice or '')}"
    elif r.act is Act.CHOOSE:
        response = f"CHOOSE {n.place(r.choice or '')}"
    elif r.act is Act.SEND:
        response = f"SEND {n.who(r.choice or '')}"
    else:
        response = r.act.value.upper()
    return f"IF {actor} {verb} {target} THEN {response}"


_LINE = re.compile(r"^IF\s+(.+?)\s+THEN\s+(.+)$", re.IGNORECASE)
_VERBS = {**{t.value: t for t in Trigger}, **{b: t for t, b in _BASE.items()}}
_HINT = "e.g. IF ANYONE ASSASSINATES Sir Guy THEN PLAY Personal Guards (docs/dwtk-orders.md)"


def _condition(text: str, n: Names) -> tuple[str, Trigger, str]:
    words = text.split()
    at = next((i for i, w in enumerate(words) if w.lower() in _VERBS), None)
    if at is None:
        verbs = ", ".join(t.value.upper() for t in Trigger)
        raise OrderSyntaxError(f"no event in {text!r}", f"one of: {verbs}")
    actor_text, trigger = " ".join(words[:at]), _VERBS[words[at].lower()]
    target_text = " ".join(words[at + 1:])
    word = actor_text.lower()
    actor = _ACTOR_WORDS.get(word) or n.read_player(word)
    if actor is None:
        raise UnknownNameError(f"no player called {actor_text!r}",
                               "write ANYONE, AN OPPONENT, I or a player's name")
    target = _TARGET_WORDS.get(target_text.lower()) \
        or n.read_who(target_text)
    if target is None:
        raise UnknownNameError(f"no character called {target_text!r}",
                               "write ANYONE, MINE, PC, an id such as 23 or a card name")
    return actor, trigger, target


def _response(text: str, trigger: Trigger, n: Names) -> tuple[Act, dict[str, Any]]:
    head, _, rest = text.strip().partition(" ")
    try:
        act = Act(head.lower())
    except ValueError:
        acts = ", ".join(a.value.upper() for a in Act)
        raise OrderSyntaxError(f"unknown response {head!r}", f"one of: {acts}") from None
    allowed = ACTS.get(trigger, {})
    if act is not Act.PLAY and act not in allowed:
        raise IllegalOrderError(f"{act.value.upper()} is no answer to {trigger.value.upper()}",
                                "see the table of reactions in docs/dwtk-orders.md")
    rest = rest.strip()
    sign = 0
    if rest.endswith(("+", "-")):
        sign, rest = (1 if rest.endswith("+") else -1), rest[:-1].strip()
    if act is Act.PLAY:
        m = re.match(r"^(\d+)\s+(.+)$", rest)
        count, name = (int(m.group(1)), m.group(2)) if m else (1, rest)
        card = n.read_card(name)
        use = CARD_USES.get(trigger, {}).get(card or "")
        if card is None or use is None:
            cards = ", ".join(n.card(c) for c in CARD_USES.get(trigger, {})) or "none"
            raise IllegalOrderError(f"{name!r} cannot be played when someone "
                                    f"{trigger.value.upper()}", f"cards for this event: {cards}")
        if use.signed != bool(sign):
            raise OrderSyntaxError(f"PLAY {n.card(card)} {'needs' if use.signed else 'takes no'} "
                                   "+ or - here", f"DWTK {use.rule}")
        return act, {"card": card, "count": max(1, count), "sign": sign}
    if act is Act.MODIFY:
        if not sign:
            raise OrderSyntaxError("MODIFY needs + or -", f"DWTK {allowed[act]}")
        return act, {"sign": sign}
    if act is Act.JUDGE:
        judge = n.read_who(rest)
        if judge not in JUDGES:
            raise UnknownNameError(f"no Judge called {rest!r}", "1st Judge (46) or 2nd Judge (51)")
        return act, {"choice": judge}
    if act is Act.CHOOSE:
        place = n.read_place(rest)
        if place is None or place == "fandonia":
            raise UnknownNameError(f"no foreign country called {rest!r}", "DWTK 29.1")
        return act, {"choice": place}
    if act is Act.SEND:
        henchman = n.read_who(rest)
        if henchman is None or not henchman.isdigit():
            raise UnknownNameError(f"no noble called {rest!r}",
                                   "SEND names a henchman: an id or a name")
        noble = n.tables.noble(int(henchman))
        if not noble.can_duel:  # stored, it would never be sent
            raise IllegalOrderError(f"{noble.name} ({henchman}) never fights a duel",
                                    "DWTK 19.2: only the nobles 11-44 and 52-54 duel")
        return act, {"choice": henchman}
    if rest or sign:
        raise OrderSyntaxError(f"{act.value.upper()} takes nothing after it")
    return act, {}


def parse_reaction(text: str, n: Names) -> Reaction:
    """``IF <actor> <VERB> <target> THEN <response>`` -> `Reaction` (or a `ParseProblem`)."""
    m = _LINE.match(text.strip())
    if not m:
        raise OrderSyntaxError("a reaction reads IF ... THEN ...", _HINT)
    actor, trigger, target = _condition(m.group(1), n)
    act, extra = _response(m.group(2), trigger, n)
    return Reaction(trigger, act, actor, target, **extra)
