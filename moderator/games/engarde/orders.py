"""Order values: frozen dataclasses, their JSON form and their canonical syntax.

`format_order` is the inverse of `parser.parse_order`; `MonthOrders` is the JSON
the turn runner stores and hands back to `adjudicate` (EG §D; reference §1, §12).
Names are stored as keys (characters, clubs, areas, housing types) and written
back with the names a player reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum, StrEnum
from typing import Any, Protocol

JSON = dict[str, Any]
WEEKS = (1, 2, 3, 4)


class SupportLevel(StrEnum):
    NORMAL = "normal"
    CONSPICUOUS = "conspicuous"


class Outcome(StrEnum):
    """What a conditional week tests about an earlier week (EG §D)."""

    FAILED = "failed"
    SUCCEEDED = "succeeded"


class Answer(StrEnum):
    """A father's answer to a pregnant mistress (EG §L; reference §10.3)."""

    MARRY = "marry"
    PAY_OFF = "pay off"
    ASSASSINS = "assassins"
    ACKNOWLEDGE = "acknowledge"
    IGNORE = "ignore"


# NPC decisions a favour can be used on (EG §S): key -> the words after ON.  Keys in
# DECISION_SUBJECT name a character (the party's host ...).  Engines still to come add
# theirs here (an appointment, a regiment, a trial) and resolve them with
# influence.resolve_npc_decision.
# FOR pushes a decision towards "yes" (the royals come, he is admitted, the charge is
# brought ...); on a TRIAL, FOR helps the defendant and AGAINST the prosecution.
DECISIONS = {"party": "PARTY", "first_night": "FIRST NIGHT", "regiment": "REGIMENT",
             "appointment": "APPOINTMENT", "charge": "CHARGE", "warrant": "WARRANT",
             "trial": "TRIAL", "title": "TITLE", "arrest": "ARREST", "divorce": "DIVORCE"}
DECISION_SUBJECT = frozenset({"party", "regiment", "appointment", "charge", "warrant",
                              "trial", "title", "arrest", "divorce"})


class Names(Protocol):
    """Turns keys back into the names a player types."""

    def character(self, key: str) -> str: ...
    def club(self, key: str) -> str: ...
    def area(self, key: str) -> str: ...
    def housing(self, key: str) -> str: ...
    def lady(self, key: str) -> str: ...
    def position(self, key: str) -> str: ...
    def regiment(self, key: str) -> str: ...
    def rank(self, key: str) -> str: ...
    def appointment(self, key: str) -> str: ...
    def crime(self, key: str) -> str: ...


@dataclass(frozen=True)
class Gamble:
    """GAMBLE <stake> x<wagers> [CUT <n>] (EG §K)."""

    stake: int
    wagers: int
    cut: int | None = None  # cut without rolling when the house rolls this or more

    def format(self) -> str:
        return f"GAMBLE {self.stake} x{self.wagers}" + (f" CUT {self.cut}" if self.cut else "")


@dataclass(frozen=True)
class Order:
    """Base of every order; ``kind`` is the JSON tag."""

    kind: str = field(init=False, default="")

    def to_dict(self) -> JSON:
        data: JSON = {"kind": self.kind}
        for f in fields(self):
            if not f.init:
                continue
            name, value = f.name, getattr(self, f.name)
            if isinstance(value, Gamble):
                value = {"stake": value.stake, "wagers": value.wagers, "cut": value.cut}
            elif isinstance(value, Order):
                value = value.to_dict()
            elif isinstance(value, Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            data[name] = value
        return data

    def format(self, names: Names) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Support(Order):
    level: SupportLevel = SupportLevel.NORMAL
    kind: str = field(init=False, default="support")

    def format(self, names: Names) -> str:
        return f"SUPPORT {self.level.value.upper()}"


@dataclass(frozen=True)
class BuyBox(Order):
    kind: str = field(init=False, default="box")

    def format(self, names: Names) -> str:
        return "BOX"


@dataclass(frozen=True)
class JoinClub(Order):
    club: str = ""
    kind: str = field(init=False, default="join_club")

    def format(self, names: Names) -> str:
        return f"JOIN CLUB {names.club(self.club)}"


@dataclass(frozen=True)
class ResignClub(Order):
    kind: str = field(init=False, default="resign_club")

    def format(self, names: Names) -> str:
        return "RESIGN CLUB"


@dataclass(frozen=True)
class HouseOrder(Order):
    """An order about one dwelling: ``<verb> <type> IN <area>`` (EG §P)."""

    house: str = ""
    area: str = ""
    verb: str = field(init=False, default="")

    def format(self, names: Names) -> str:
        return f"{self.verb} {names.housing(self.house)} IN {names.area(self.area)}"


@dataclass(frozen=True)
class Rent(HouseOrder):
    kind: str = field(init=False, default="rent")
    verb: str = field(init=False, default="RENT")


@dataclass(frozen=True)
class Buy(HouseOrder):
    kind: str = field(init=False, default="buy")
    verb: str = field(init=False, default="BUY")


@dataclass(frozen=True)
class Sell(HouseOrder):
    kind: str = field(init=False, default="sell")
    verb: str = field(init=False, default="SELL")


@dataclass(frozen=True)
class Let(HouseOrder):
    kind: str = field(init=False, default="let")
    verb: str = field(init=False, default="LET")


@dataclass(frozen=True)
class StopLetting(HouseOrder):
    kind: str = field(init=False, default="stop_letting")
    verb: str = field(init=False, default="STOP LETTING")


@dataclass(frozen=True)
class Theatre(Order):
    first_night: bool = False
    with_mistress: bool = False  # EG §L: seen with her; guards her that weekend
    kind: str = field(init=False, default="theatre")

    def format(self, names: Names) -> str:
        text = "THEATRE FIRST NIGHT" if self.first_night else "THEATRE"
        return text + (" WITH MISTRESS" if self.with_mistress else "")


@dataclass(frozen=True)
class ClubVisit(Order):
    """A week at a club with its combination actions (EG §G–K)."""

    club: str = ""
    guest_of: str | None = None
    bring: tuple[str, ...] = ()
    toady: str | None = None
    carouse: bool = False
    gamble: Gamble | None = None
    with_mistress: bool = False  # EG §L: escorting her counts as the month's visit
    kind: str = field(init=False, default="club")

    def format(self, names: Names) -> str:
        parts = [f"CLUB {names.club(self.club)}"]
        if self.guest_of:
            parts.append(f"GUEST OF {names.character(self.guest_of)}")
        if self.bring:
            parts.append("BRING " + ", ".join(names.character(k) for k in self.bring))
        parts += _combos(self.toady, self.carouse, self.gamble, names)
        if self.with_mistress:
            parts.append("WITH MISTRESS")
        return "; ".join(parts)


@dataclass(frozen=True)
class Bawdyhouse(Order):
    """A week at a bawdyhouse: company and drink are included (EG §M)."""

    toady: str | None = None
    gamble: Gamble | None = None
    kind: str = field(init=False, default="bawdyhouse")

    def format(self, names: Names) -> str:
        return "; ".join(["BAWDYHOUSE", *_combos(self.toady, False, self.gamble, names)])


@dataclass(frozen=True)
class HostParty(Order):
    """HOST PARTY AT CLUB|HOME (EG §J); naming exclusions means hiring bouncers."""

    at_home: bool = False
    bouncers: bool = False
    exclude: tuple[str, ...] = ()
    kind: str = field(init=False, default="host_party")

    def format(self, names: Names) -> str:
        parts = ["HOST PARTY AT " + ("HOME" if self.at_home else "CLUB")]
        if self.exclude:
            parts.append("EXCLUDE " + ", ".join(names.character(k) for k in self.exclude))
        elif self.bouncers:
            parts.append("BOUNCERS")
        return "; ".join(parts)


@dataclass(frozen=True)
class AttendParty(Order):
    host: str = ""
    toady: str | None = None
    carouse: bool = False
    kind: str = field(init=False, default="party")

    def format(self, names: Names) -> str:
        parts = [f"PARTY {names.character(self.host)}"]
        return "; ".join(parts + _combos(self.toady, self.carouse, None, names))


@dataclass(frozen=True)
class Practice(Order):
    weapon: str = "rapier"
    kind: str = field(init=False, default="practice")

    def format(self, names: Names) -> str:
        return f"PRACTICE {self.weapon}"


@dataclass(frozen=True)
class Move(Order):
    kind: str = field(init=False, default="move")

    def format(self, names: Names) -> str:
        return "MOVE"


@dataclass(frozen=True)
class Rest(Order):
    kind: str = field(init=False, default="rest")

    def format(self, names: Names) -> str:
        return "REST"


@dataclass(frozen=True)
class Conditional(Order):
    """IF WEEK n FAILED|SUCCEEDED THEN a [ELSE b] ENDIF (EG §D)."""

    week: int = 1
    outcome: Outcome = Outcome.FAILED
    then: Order = field(default_factory=Rest)
    otherwise: Order | None = None
    kind: str = field(init=False, default="if")

    def format(self, names: Names) -> str:
        text = f"IF WEEK {self.week} {self.outcome.value.upper()} THEN {self.then.format(names)}"
        if self.otherwise is not None:
            text += f" ELSE {self.otherwise.format(names)}"
        return text + " ENDIF"


@dataclass(frozen=True)
class Court(Order):
    """COURT <lady> [EXTRA n] [WITHDRAW] (EG §L): a week's courting."""

    lady: str = ""
    extra: int = 0  # further multiples of 3 x her SL, +1 each (not for a Wealthy lady)
    withdraw: bool = False  # give way if another suitor is at her door that week
    kind: str = field(init=False, default="court")

    def format(self, names: Names) -> str:
        return (f"COURT {names.lady(self.lady)}" + (f" EXTRA {self.extra}" if self.extra else "")
                + (" WITHDRAW" if self.withdraw else ""))


@dataclass(frozen=True)
class VisitMistress(Order):
    kind: str = field(init=False, default="visit_mistress")

    def format(self, names: Names) -> str:
        return "VISIT MISTRESS"


@dataclass(frozen=True)
class Liaise(Order):
    """LIAISE <lady> [GIFT DOUBLE] [REVEAL] (EG §L): a weekend liaison."""

    lady: str = ""
    double: bool = False
    reveal: bool = False
    kind: str = field(init=False, default="liaise")

    def format(self, names: Names) -> str:
        return (f"LIAISE {names.lady(self.lady)}" + (" GIFT DOUBLE" if self.double else "")
                + (" REVEAL" if self.reveal else ""))


@dataclass(frozen=True)
class Propose(Order):
    kind: str = field(init=False, default="propose")

    def format(self, names: Names) -> str:
        return "PROPOSE"


@dataclass(frozen=True)
class Marry(Order):
    """MARRY [x<n>] (EG §L): the wedding, spending n x the couple's combined SL."""

    multiples: int = 1
    kind: str = field(init=False, default="marry")

    def format(self, names: Names) -> str:
        return "MARRY" + (f" x{self.multiples}" if self.multiples > 1 else "")


@dataclass(frozen=True)
class PregnancyAnswer(Order):
    """PREGNANCY <lady> MARRY|PAY OFF|ASSASSINS|ACKNOWLEDGE|IGNORE (EG §L)."""

    lady: str = ""
    answer: Answer = Answer.ACKNOWLEDGE
    kind: str = field(init=False, default="pregnancy")

    def format(self, names: Names) -> str:
        return f"PREGNANCY {names.lady(self.lady)} {self.answer.value.upper()}"


@dataclass(frozen=True)
class CombineFavours(Order):
    """COMBINE FAVOURS <class>: two of a class make one of the next (EG §S)."""

    cls: int = 1
    kind: str = field(init=False, default="combine_favours")

    def format(self, names: Names) -> str:
        return f"COMBINE FAVOURS {self.cls}"


@dataclass(frozen=True)
class Bribe(Order):
    """BRIBE <position> CLASS <n> (EG §S Bribery table)."""

    position: str = ""
    cls: int = 1
    kind: str = field(init=False, default="bribe")

    def format(self, names: Names) -> str:
        return f"BRIBE {names.position(self.position)} CLASS {self.cls}"


@dataclass(frozen=True)
class UseFavour(Order):
    """USE FAVOUR <class> ON <decision> FOR|AGAINST [<character>] (EG §S)."""

    cls: int = 1
    decision: str = "party"
    subject: str | None = None
    against: bool = False
    kind: str = field(init=False, default="use_favour")

    def format(self, names: Names) -> str:
        text = (f"USE FAVOUR {self.cls} ON {DECISIONS[self.decision]} "
                + ("AGAINST" if self.against else "FOR"))
        return text + (f" {names.character(self.subject)}" if self.subject else "")


@dataclass(frozen=True)
class Lend(Order):
    """LEND <crowns> TO <character> (EG §Q): only with his matching BORROW."""

    amount: int = 0
    to: str = ""
    kind: str = field(init=False, default="lend")

    def format(self, names: Names) -> str:
        return f"LEND {self.amount} TO {names.character(self.to)}"


@dataclass(frozen=True)
class Borrow(Order):
    """BORROW <crowns> FROM <character>|SHYLOCK (EG §Q)."""

    amount: int = 0
    lender: str | None = None  # None: a shylock
    kind: str = field(init=False, default="borrow")

    def format(self, names: Names) -> str:
        who = names.character(self.lender) if self.lender else "SHYLOCK"
        return f"BORROW {self.amount} FROM {who}"


@dataclass(frozen=True)
class Repay(Order):
    """REPAY <crowns>|ALL TO <character>|SHYLOCK (EG §Q); 0 = all he owes him."""

    amount: int = 0
    lender: str | None = None
    kind: str = field(init=False, default="repay")

    def format(self, names: Names) -> str:
        who = names.character(self.lender) if self.lender else "SHYLOCK"
        return f"REPAY {self.amount or 'ALL'} TO {who}"


@dataclass(frozen=True)
class Demand(Order):
    """DEMAND REPAYMENT FROM <character> (EG §Q): published in the gazette."""

    borrower: str = ""
    kind: str = field(init=False, default="demand")

    def format(self, names: Names) -> str:
        return f"DEMAND REPAYMENT FROM {names.character(self.borrower)}"


@dataclass(frozen=True)
class StayInParis(Order):
    """STAY IN PARIS: a shylock's defaulter who will not flee to the front (EG §Q)."""

    kind: str = field(init=False, default="stay_in_paris")

    def format(self, names: Names) -> str:
        return "STAY IN PARIS"


# --- The army (reference §4-5) -------------------------------------------------------


@dataclass(frozen=True)
class JoinRegiment(Order):
    """JOIN REGIMENT <regiment> [AS <rank>] (reference §4.1): up to Major on entry."""

    regiment: str = ""
    rank: str = "private"
    kind: str = field(init=False, default="join_regiment")

    def format(self, names: Names) -> str:
        text = f"JOIN REGIMENT {names.regiment(self.regiment)}"
        return text + (f" AS {names.rank(self.rank)}" if self.rank != "private" else "")


@dataclass(frozen=True)
class BuyCommission(Order):
    """BUY COMMISSION <rank>: the next rank(s) in his regiment, each step paid."""

    rank: str = "subaltern"
    kind: str = field(init=False, default="buy_commission")

    def format(self, names: Names) -> str:
        return f"BUY COMMISSION {names.rank(self.rank)}"


@dataclass(frozen=True)
class SellCommission(Order):
    kind: str = field(init=False, default="sell_commission")

    def format(self, names: Names) -> str:
        return "SELL COMMISSION"


@dataclass(frozen=True)
class BuyHorse(Order):
    count: int = 1
    kind: str = field(init=False, default="buy_horse")

    def format(self, names: Names) -> str:
        return "BUY HORSE" + (f" {self.count}" if self.count != 1 else "")


@dataclass(frozen=True)
class Duty(Order):
    """WEEK n: REGIMENTAL DUTY (reference §4.5)."""

    kind: str = field(init=False, default="duty")

    def format(self, names: Names) -> str:
        return "REGIMENTAL DUTY"


@dataclass(frozen=True)
class Volunteer(Order):
    """VOLUNTEER FOR THE FRONT (reference §5.1)."""

    kind: str = field(init=False, default="volunteer")

    def format(self, names: Names) -> str:
        return "VOLUNTEER FOR THE FRONT"


# --- Duels (reference §6) --------------------------------------------------------------


@dataclass(frozen=True)
class Challenge(Order):
    """CHALLENGE <name> [WEAPON w] [WEEK n] [TO THE DEATH]: published, fought next month."""

    target: str = ""
    weapon: str | None = None
    week: int | None = None
    to_death: bool = False
    kind: str = field(init=False, default="challenge")

    def format(self, names: Names) -> str:
        text = f"CHALLENGE {names.character(self.target)}"
        text += f" WEAPON {self.weapon}" if self.weapon else ""
        text += f" WEEK {self.week}" if self.week else ""
        return text + (" TO THE DEATH" if self.to_death else "")


@dataclass(frozen=True)
class DuelOrders(Order):
    """DUEL <name>: WEAPON w; SECONDS a, b; TO FIRST BLOOD|TO THE DEATH."""

    opponent: str = ""
    weapon: str | None = None
    seconds: tuple[str, ...] = ()
    to_death: bool | None = None
    kind: str = field(init=False, default="duel")

    def format(self, names: Names) -> str:
        parts = []
        if self.weapon:
            parts.append(f"WEAPON {self.weapon}")
        if self.seconds:
            parts.append("SECONDS " + ", ".join(names.character(k) for k in self.seconds))
        if self.to_death is not None:
            parts.append("TO THE DEATH" if self.to_death else "TO FIRST BLOOD")
        return f"DUEL {names.character(self.opponent)}: " + "; ".join(parts or ["AS CHALLENGED"])


@dataclass(frozen=True)
class AnswerChallenge(Order):
    """ACCEPT|REFUSE CHALLENGE FROM <name>; no answer = he turns up (accepts)."""

    challenger: str = ""
    accept: bool = True
    kind: str = field(init=False, default="answer_challenge")

    def format(self, names: Names) -> str:
        word = "ACCEPT" if self.accept else "REFUSE"
        return f"{word} CHALLENGE FROM {names.character(self.challenger)}"


# --- Prosecutions (EG §R), appointments (reference §7), divorce (EG §L), press ---------


@dataclass(frozen=True)
class ChargeOrder(Order):
    """CHARGE <name> WITH <crime>: brought by (or asked of) the right office holder."""

    accused: str = ""
    crime: str = "treason"
    kind: str = field(init=False, default="charge")

    def format(self, names: Names) -> str:
        return f"CHARGE {names.character(self.accused)} WITH {names.crime(self.crime)}"


@dataclass(frozen=True)
class RequestWarrant(Order):
    """REQUEST WARRANT AGAINST <name> [FOR <crime>]: titled nobles only (EG §R)."""

    accused: str = ""
    crime: str = "treason"
    kind: str = field(init=False, default="warrant")

    def format(self, names: Names) -> str:
        return (f"REQUEST WARRANT AGAINST {names.character(self.accused)} "
                f"FOR {names.crime(self.crime)}")


@dataclass(frozen=True)
class Testify(Order):
    """TESTIFY FOR|AGAINST <name> (EG §R): a witness; an affidavit when he cannot attend."""

    accused: str = ""
    against: bool = True
    kind: str = field(init=False, default="testify")

    def format(self, names: Names) -> str:
        return f"TESTIFY {'AGAINST' if self.against else 'FOR'} {names.character(self.accused)}"


@dataclass(frozen=True)
class Apply(Order):
    """APPLY FOR <position> (reference §7)."""

    position: str = ""
    kind: str = field(init=False, default="apply")

    def format(self, names: Names) -> str:
        return f"APPLY FOR {names.appointment(self.position)}"


@dataclass(frozen=True)
class ResignPosition(Order):
    kind: str = field(init=False, default="resign_position")

    def format(self, names: Names) -> str:
        return "RESIGN POSITION"


@dataclass(frozen=True)
class SueForDivorce(Order):
    """SUE FOR DIVORCE (EG §L): a husband whose wife's adultery is public."""

    kind: str = field(init=False, default="divorce")

    def format(self, names: Names) -> str:
        return "SUE FOR DIVORCE"


@dataclass(frozen=True)
class Champion(Order):
    """CHAMPION <lady> (EG §L): sue for a wife's divorce from her adulterous husband."""

    lady: str = ""
    kind: str = field(init=False, default="champion")

    def format(self, names: Names) -> str:
        return f"CHAMPION {names.lady(self.lady)}"


@dataclass(frozen=True)
class Announce(Order):
    """ANNOUNCE: "text" [UNSIGNED|AS <alias>]: printed in the gazette (reference §13)."""

    text: str = ""
    unsigned: bool = False
    alias: str | None = None
    kind: str = field(init=False, default="announce")

    def format(self, names: Names) -> str:
        text = f'ANNOUNCE "{self.text}"'
        if self.unsigned:
            return text + " UNSIGNED"
        return text + (f" AS {self.alias}" if self.alias else "")


@dataclass(frozen=True)
class HouseDeal(Order):
    """SELL|BUY <type> IN <area> TO|FROM <name> FOR <n> (EG §P): both orders must match."""

    house: str = ""
    area: str = ""
    other: str = ""
    price: int = 0
    selling: bool = True
    kind: str = field(init=False, default="house_deal")

    def format(self, names: Names) -> str:
        verb, word = ("SELL", "TO") if self.selling else ("BUY", "FROM")
        return (f"{verb} {names.housing(self.house)} IN {names.area(self.area)} {word} "
                f"{names.character(self.other)} FOR {self.price}")


def _combos(toady: str | None, carouse: bool, gamble: Gamble | None, names: Names) -> list[str]:
    parts = []
    if toady:
        parts.append(f"TOADY {names.character(toady)}")
    if carouse:
        parts.append("CAROUSE")
    if gamble:
        parts.append(gamble.format())
    return parts


_KINDS: dict[str, type[Order]] = {
    cls().kind: cls
    for cls in (Support, BuyBox, JoinClub, ResignClub, Rent, Buy, Sell, Let, StopLetting,
                Theatre, ClubVisit, Bawdyhouse, HostParty, AttendParty, Practice, Move, Rest,
                Conditional, Court, VisitMistress, Liaise, Propose, Marry, PregnancyAnswer,
                CombineFavours, Bribe, UseFavour, Lend, Borrow, Repay, Demand, StayInParis,
                JoinRegiment, BuyCommission, SellCommission, BuyHorse, Duty, Volunteer,
                Challenge, DuelOrders, AnswerChallenge, ChargeOrder, RequestWarrant, Testify,
                Apply, ResignPosition, SueForDivorce, Champion, Announce, HouseDeal)
}


def order_from_dict(data: Mapping[str, Any]) -> Order:
    """The inverse of `Order.to_dict`."""
    cls = _KINDS[data["kind"]]
    args: JSON = {}
    for name, value in data.items():
        if name == "kind":
            continue
        if name == "gamble" and value is not None:
            value = Gamble(value["stake"], value["wagers"], value.get("cut"))
        elif name in ("then", "otherwise") and value is not None:
            value = order_from_dict(value)
        elif name == "level":
            value = SupportLevel(value)
        elif name == "outcome":
            value = Outcome(value)
        elif name == "answer":
            value = Answer(value)
        elif isinstance(value, list):
            value = tuple(value)
        args[name] = value
    return cls(**args)
