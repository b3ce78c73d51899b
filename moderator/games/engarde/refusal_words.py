"""The words of the refusals a receipt's forecast lists (forecast.py): what the order
was and why the rules refuse it, in a player's words (never an event's id or key).

The forecast is part of the pure engine and cannot render the event templates, so the
reasons are worded here as the turn sheet words them (templates/engarde/events.md.j2);
tests/engarde/test_refusal_words.py fails when the two drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

# Why a refusal was made, in the words of the turn sheet's line for that event
# (templates/engarde/events.md.j2): one phrase per reason, ``{arg}`` the event's args.
# tests/engarde/test_refusal_words.py fails when a reason is worded on one side only or
# the two say different things (the engine cannot render templates: it is pure).
REASON_WORDS: dict[str, dict[str, str]] = {
    "club.join_refused": {
        "sl": "the club needs SL {min_sl}", "other_club": "you already belong to {other}; "
        "resign first (RESIGN CLUB: one club at a time, EG §G)",
        "already": "you are already a member",
        "requires": "it takes only officers of the Horse Guards Brigade",
        "disgraced": "no club will have a disgraced man",
        "barred": "you resigned it too recently (EG §G)", "funds": "you cannot pay the dues"},
    "proposal.refused": {
        "no_mistress": "you have no mistress", "married": "you are married",
        "engaged": "you are already engaged",
        "too_soon": "you have not been going steady six months (EG §L)",
        "funds": "the gift costs {cost} crowns"},
    "appointment.refused": {
        "rank": "your rank (or title) is too low", "sl": "your SL is too low",
        "ma": "your military ability is too low", "vacancy": "the post is filled",
        "regiment": "you are in no regiment", "disgraced": "a disgraced man holds no post",
        "holds_one": "you already hold a post"},
    "regiment.commission_refused": {
        "no_regiment": "you are in no regiment (JOIN REGIMENT first)",
        "not_higher": "it is not above your rank", "one_step": "above Major one rank at a time",
        "sl": "your SL is too low", "vacancy": "no vacancy", "funds": "you cannot pay for it"},
    "mistress.court_refused": {
        "gone": "she is no longer in Paris", "married": "wives may not be courted",
        "yours": "she is already yours", "husband": "a husband may not court openly",
        "funds": "the gifts cost {cost} crowns"},
    "liaison.refused": {
        "gone": "she is no longer in Paris", "yours": "she is already yours",
        "funds": "the gift is beyond your purse"},
    "wedding.refused": {
        "not_engaged": "you are not engaged",
        "house": "she must be housed in a house of rank {rank}",
        "funds": "the wedding costs {cost} crowns"},
    "honour.pardon_refused": {
        "not_disgraced": "you are not disgraced",
        "debt": "the King does not pay debts; repay them"},
    "trial.charge_refused": {
        "noble": "only a noble may accuse a noble",
        "pc_office": "the office holder must bring it himself",
        "untitled": "only a titled noble may ask the King", "accused": "no such defendant"},
    "divorce.refused": {"grounds": "there is no public adultery to sue on"},
    "loan.refused": {"limit": "the shylock will lend you only {limit} more",
                     "funds": "the lender lacks the money"},
    "title.refused": {"sl": "your SL is too low for the next title",
                      "top": "there is no higher title"},
}


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def because(event_id: str, args: Mapping[str, Any]) -> str:
    """The reason of a refusal in words (`REASON_WORDS`); an unknown one as it is."""
    reason = str(args.get("reason"))
    words = REASON_WORDS[event_id].get(reason)
    return reason if words is None else words.format_map(_Blank(args))


# The refusals players meet most, in their words (args from the events, EG §F, §G, §J).
SAID: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "club.join_refused": lambda a: f"JOIN CLUB {a.get('club')}: refused, "
                                   + because("club.join_refused", a),
    "proposal.refused": lambda a: "PROPOSE: refused, " + because("proposal.refused", a),
    "appointment.refused": lambda a: f"APPLY FOR {a.get('position')}: refused, "
                                     + because("appointment.refused", a),
    "gambling.stopped": lambda a: f"GAMBLE: you cannot cover wager {a.get('wager')} of "
                                  f"{a.get('stake')} crowns at {a.get('venue')} and leave the "
                                  "table (EG §K)",
    "club.refused_entry": lambda a: f"CLUB {a.get('club')}: turned away unless "
                                    f"{a.get('host')} brings you the same week (BRING <you>)"
                                    if a.get("host") else f"CLUB {a.get('club')}: turned "
                                    "away, you are not a member (nor anyone's guest)",
    "theatre.unaffordable": lambda a: f"THEATRE: you cannot pay for the {a.get('what')} "
                                      f"({a.get('cost')} crowns)",
    "party.cancelled": lambda a: "HOST PARTY AT HOME: cancelled, you have no lodgings"
                                 if a.get("at_home") else "HOST PARTY: cancelled",
    "carouse.unaffordable": lambda a: "CAROUSE: you cannot pay for the drinks",
    "bawdyhouse.refused": lambda a: f"BAWDYHOUSE: refused, company and drink cost "
                                    f"{a.get('cost')} crowns (EG §M)",
    "housing.refused": lambda a: f"{a.get('house')} in {a.get('area')}: refused, "
                                 f"{a.get('reason')}",
    "regiment.commission_refused": lambda a: f"BUY COMMISSION {a.get('rank')}: refused, "
                                             + because("regiment.commission_refused", a),
    "mistress.court_refused": lambda a: f"COURT {a.get('name')}: refused, "
                                        + because("mistress.court_refused", a),
    "practice.unaffordable": lambda a: f"PRACTICE {a.get('weapon')}: you cannot pay the "
                                       f"fencing master {a.get('cost')} crowns",
    "support.unpaid": lambda a: f"support ({a.get('cost')} crowns) cannot be paid: "
                                "you lose a Social Level",
    "support.downgraded": lambda a: "SUPPORT CONSPICUOUS cannot be paid: normal support "
                                    "instead",
    "liaison.refused": lambda a: f"LIAISE {a.get('name')}: refused, "
                                 + because("liaison.refused", a),
    "wedding.refused": lambda a: "MARRY: refused, " + because("wedding.refused", a),
    "honour.pardon_refused": lambda a: "PETITION FOR PARDON: refused, "
                                       + because("honour.pardon_refused", a),
    "trial.charge_refused": lambda a: f"CHARGE {a.get('accused')}: refused, "
                                      + because("trial.charge_refused", a),
    "divorce.refused": lambda a: "SUE FOR DIVORCE: refused, " + because("divorce.refused", a),
    "loan.refused": lambda a: f"BORROW {a.get('amount')}: refused, "
                              + because("loan.refused", a),
    "title.refused": lambda a: "no title, " + because("title.refused", a),
    "party.over_limit": lambda a: f"HOST PARTY: {a.get('over')} guests over the house's "
                                  f"limit of {a.get('limit')}",
    "party.turned_away": lambda a: f"PARTY {a.get('host')}: his bouncers turn you away",
    "mistress.unpaid": lambda a: f"you cannot pay {a.get('lady')}'s support "
                                 f"({a.get('cost')} crowns)",
    "family.unaffordable": lambda a: f"PREGNANCY: your answer to {a.get('lady')} needs "
                                     f"{a.get('cost')} crowns",
    "bribe.unaffordable": lambda a: f"BRIBE: a class {a.get('cls')} bribe costs "
                                    f"{a.get('cost')} crowns",
}
