"""Every event id the engine can emit; templates/engarde/events.md.j2 has one macro each.

Events carry ids and arguments only; the prose lives in the templates (style rule 6).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from moderator.games.base import Event


class EventId(StrEnum):
    """Stable event ids, grouped by rulebook section."""

    # EG §A–B: birth
    CHARACTER_CREATED = "character.created"
    CHARACTER_INDISPOSED = "character.indisposed"
    # EG §F: income and support
    INCOME_ALLOWANCE = "income.allowance"
    SUPPORT_PAID = "support.paid"
    SUPPORT_DOWNGRADED = "support.downgraded"
    SUPPORT_UNPAID = "support.unpaid"
    # EG §G–H: clubs and carousing
    CLUB_JOINED = "club.joined"
    CLUB_JOIN_REFUSED = "club.join_refused"
    CLUB_RESIGNED = "club.resigned"
    CLUB_DUES = "club.dues"
    CLUB_EXPELLED = "club.expelled"
    CLUB_MEMBERSHIP_SP = "club.membership_sp"
    CLUB_VISIT = "club.visit"
    CLUB_REFUSED_ENTRY = "club.refused_entry"
    CLUB_GUEST = "club.guest"
    CAROUSE_DRINK = "carouse.drink"
    CAROUSE_UNAFFORDABLE = "carouse.unaffordable"
    MUTUAL_NO_SHOW = "mutual.no_show"
    # EG §I: toadying
    TOADY_TOADIED = "toady.toadied"
    TOADY_PATRON = "toady.patron"
    TOADY_TAKEN = "toady.taken"
    # EG §J: parties
    PARTY_HELD = "party.held"
    PARTY_ROYALS = "party.royals"
    PARTY_BOUNCERS = "party.bouncers"
    PARTY_DRINKS = "party.drinks"
    PARTY_OVER_LIMIT = "party.over_limit"
    PARTY_ATTENDED = "party.attended"
    PARTY_TURNED_AWAY = "party.turned_away"
    PARTY_CANCELLED = "party.cancelled"
    # EG §K: gambling
    GAMBLING_SESSION = "gambling.session"
    GAMBLING_BONUS = "gambling.bonus"
    GAMBLING_STOPPED = "gambling.stopped"
    # EG §L: female companionship
    COMPANIONSHIP_MET = "companionship.met"
    COMPANIONSHIP_LACKING = "companionship.lacking"
    # EG §M: bawdyhouse
    BAWDYHOUSE_VISIT = "bawdyhouse.visit"
    BAWDYHOUSE_REFUSED = "bawdyhouse.refused"
    # EG §N: practice
    PRACTICE_WEEK = "practice.week"
    PRACTICE_IMPROVED = "practice.improved"
    PRACTICE_UNAFFORDABLE = "practice.unaffordable"
    # EG §O: theatre
    THEATRE_RECEPTION = "theatre.reception"
    THEATRE_RUN_CONTINUES = "theatre.run_continues"
    THEATRE_RUN_ENDS = "theatre.run_ends"
    THEATRE_TRIP = "theatre.trip"
    THEATRE_FIRST_NIGHT = "theatre.first_night"
    THEATRE_NO_FIRST_NIGHT = "theatre.no_first_night"
    THEATRE_BOX = "theatre.box"
    THEATRE_BOX_SEEN = "theatre.box_seen"
    THEATRE_BOX_UNUSED = "theatre.box_unused"
    THEATRE_UNAFFORDABLE = "theatre.unaffordable"
    THEATRE_ROYALS = "theatre.royals"
    # EG §P: housing
    HOUSING_FAMILY_HOME = "housing.family_home"
    HOUSING_RENTED = "housing.rented"
    HOUSING_BOUGHT = "housing.bought"
    HOUSING_RENT = "housing.rent"
    HOUSING_EVICTED = "housing.evicted"
    HOUSING_SOLD = "housing.sold"
    HOUSING_MOVED = "housing.moved"
    HOUSING_REFUSED = "housing.refused"
    HOUSING_LET = "housing.let"
    HOUSING_NO_TENANT = "housing.no_tenant"
    HOUSING_ADVERT = "housing.advert"
    HOUSING_LETTING = "housing.letting"
    HOUSING_SP = "housing.sp"
    # EG §L: mistresses, liaisons, proposals, weddings
    LIAISON_FAILED = "liaison.failed"
    LIAISON_GIFT = "liaison.gift"
    LIAISON_GUARDED = "liaison.guarded"
    LIAISON_IN_LOVE = "liaison.in_love"
    LIAISON_REFUSED = "liaison.refused"
    LIAISON_REVEALED = "liaison.revealed"
    LIAISON_SUCCESS = "liaison.success"
    MISTRESS_COURTING = "mistress.courting"
    MISTRESS_COURT_FAILED = "mistress.court_failed"
    MISTRESS_COURT_REFUSED = "mistress.court_refused"
    MISTRESS_ESCORTED = "mistress.escorted"
    MISTRESS_GIFT = "mistress.gift"
    MISTRESS_LOST = "mistress.lost"
    MISTRESS_NONE = "mistress.none"
    MISTRESS_RIVALS = "mistress.rivals"
    MISTRESS_SP = "mistress.sp"
    MISTRESS_SUPPORT = "mistress.support"
    MISTRESS_UNPAID = "mistress.unpaid"
    MISTRESS_VISITED = "mistress.visited"
    MISTRESS_WITHDREW = "mistress.withdrew"
    MISTRESS_WON = "mistress.won"
    PROPOSAL_ACCEPTED = "proposal.accepted"
    PROPOSAL_DECLINED = "proposal.declined"
    PROPOSAL_GIFT = "proposal.gift"
    PROPOSAL_REFUSED = "proposal.refused"
    WEDDING_HELD = "wedding.held"
    WEDDING_MISSED = "wedding.missed"
    WEDDING_REFUSED = "wedding.refused"
    WIFE_UNHOUSED = "wife.unhoused"
    # EG §L: pregnancy and births
    FAMILY_ACKNOWLEDGED = "family.acknowledged"
    FAMILY_ASSASSINATED = "family.assassinated"
    FAMILY_ASSASSIN_PITY = "family.assassin_pity"
    FAMILY_BIRTH = "family.birth"
    FAMILY_IGNORED = "family.ignored"
    FAMILY_MOTHER_DIED = "family.mother_died"
    FAMILY_PAID_OFF = "family.paid_off"
    FAMILY_PREGNANT = "family.pregnant"
    FAMILY_STILLBIRTH = "family.stillbirth"
    FAMILY_TOLD_ALL = "family.told_all"
    FAMILY_UNAFFORDABLE = "family.unaffordable"
    # EG §Q: loans
    LOAN_BORROWED = "loan.borrowed"
    LOAN_CLEARED = "loan.cleared"
    LOAN_COLLECTED = "loan.collected"
    LOAN_DEFAULTED = "loan.defaulted"
    LOAN_DEMANDED = "loan.demanded"
    LOAN_ESTATE = "loan.estate"
    LOAN_ESTATE_PAID = "loan.estate_paid"
    LOAN_LENT = "loan.lent"
    LOAN_RECEIVED = "loan.received"
    LOAN_REFUSED = "loan.refused"
    LOAN_REPAID = "loan.repaid"
    LOAN_TOO_EARLY = "loan.too_early"
    LOAN_UNMATCHED = "loan.unmatched"
    LOAN_WRITTEN_OFF = "loan.written_off"
    # EG §S: influence and bribery
    BRIBE_ACCEPTED = "bribe.accepted"
    BRIBE_REPORTED = "bribe.reported"
    BRIBE_UNAFFORDABLE = "bribe.unaffordable"
    BRIBE_WASTED = "bribe.wasted"
    FAVOUR_LAPSED = "favour.lapsed"
    FAVOUR_MISSING = "favour.missing"
    FAVOUR_RECEIVED = "favour.received"
    FAVOUR_UNUSED = "favour.unused"
    FAVOUR_USED = "favour.used"
    # Disgrace, causes for duels, reports (honour.py: extension points)
    HONOUR_CAUSE = "honour.cause"
    HONOUR_DISGRACED = "honour.disgraced"
    HONOUR_REPORTED = "honour.reported"
    HONOUR_RESTORED = "honour.restored"
    HONOUR_PARDON_REFUSED = "honour.pardon_refused"
    # Reference §4: regiments, ranks, pay, duty, horses
    REGIMENT_JOINED = "regiment.joined"
    REGIMENT_REJECTED = "regiment.rejected"
    REGIMENT_COMMISSION = "regiment.commission"
    REGIMENT_COMMISSION_REFUSED = "regiment.commission_refused"
    REGIMENT_SOLD = "regiment.sold"
    REGIMENT_DEAL = "regiment.deal"
    REGIMENT_DEAL_UNMATCHED = "regiment.deal_unmatched"
    REGIMENT_PAY = "regiment.pay"
    REGIMENT_DUTY = "regiment.duty"
    REGIMENT_DUTY_MISSED = "regiment.duty_missed"
    HORSE_BOUGHT = "horse.bought"
    HORSE_UPKEEP = "horse.upkeep"
    HORSE_LACKING = "horse.lacking"
    CLUB_NOT_QUALIFIED = "club.not_qualified"
    # Reference §5: the front
    FRONT_DEPLOYED = "front.deployed"
    FRONT_DEPARTS = "front.departs"
    FRONT_RETURNS = "front.returns"
    FRONT_BATTLE = "front.battle"
    FRONT_DIED = "front.died"
    FRONT_MENTIONED = "front.mentioned"
    FRONT_MENTION_SP = "front.mention_sp"
    FRONT_PROMOTED = "front.promoted"
    FRONT_PLUNDER = "front.plunder"
    FRONT_SURVIVED = "front.survived"
    FRONT_DISGUISED = "front.disguised"
    # Reference §6: duels
    DUEL_CHALLENGED = "duel.challenged"
    DUEL_INVALID = "duel.invalid"
    DUEL_NO_CAUSE = "duel.no_cause"
    DUEL_REFUSED = "duel.refused"
    DUEL_NO_SHOW = "duel.no_show"
    DUEL_WALKOVER = "duel.walkover"
    DUEL_FOUGHT = "duel.fought"
    DUEL_SP = "duel.sp"
    DUEL_KILLED = "duel.killed"
    # EG §R: prosecutions and trials
    TRIAL_CHARGED = "trial.charged"
    TRIAL_CHARGE_REFUSED = "trial.charge_refused"
    TRIAL_WITNESS = "trial.witness"
    TRIAL_VERDICT = "trial.verdict"
    TRIAL_MISTRIAL = "trial.mistrial"
    TRIAL_OVERRULED = "trial.overruled"
    TRIAL_SENTENCE = "trial.sentence"
    TRIAL_RELEASED = "trial.released"
    TRIAL_ARREST_REFUSED = "trial.arrest_refused"
    TRIAL_ARRESTED = "trial.arrested"
    TRIAL_CAUGHT = "trial.caught"
    TRIAL_FINE_DEBT = "trial.fine_debt"
    # Reference §7-8: appointments and titles
    APPOINTMENT_GRANTED = "appointment.granted"
    APPOINTMENT_REFUSED = "appointment.refused"
    APPOINTMENT_RESIGNED = "appointment.resigned"
    APPOINTMENT_LOST = "appointment.lost"
    APPOINTMENT_PAY = "appointment.pay"
    TITLE_QUALIFIED = "title.qualified"
    TITLE_GRANTED = "title.granted"
    TITLE_REFUSED = "title.refused"
    TITLE_PENSION = "title.pension"
    # EG §L: divorce
    DIVORCE_GRANTED = "divorce.granted"
    DIVORCE_REFUSED = "divorce.refused"
    # Reference §13: the press; EG §P deals between players; joint parties
    PRESS_ANNOUNCEMENT = "press.announcement"
    HOUSING_DEAL = "housing.deal"
    HOUSING_DEAL_UNMATCHED = "housing.deal_unmatched"
    PARTY_COHOST = "party.cohost"
    # The GM's decisions (GM's desk)
    DECISION_APPLIED = "decision.applied"
    # EG §C-D: the month's orders
    ORDERS_SKIPPED = "orders.skipped"
    # EG §E: status
    STATUS_ROSE = "status.rose"
    STATUS_HELD = "status.held"
    STATUS_FELL = "status.fell"


ALL_EVENT_IDS: tuple[str, ...] = tuple(e.value for e in EventId)


def macro_name(event_id: str) -> str:
    """The jinja2 macro for an event id: dots become underscores."""
    return event_id.replace(".", "_")


class EnGardeEvent(Event):
    """An event with En Garde!'s two ledgers: the SP and crowns the actor gains by it
    (negative: loses), so a turn sheet's accounts are just his events (EG §E, §F).

    Every event carries both (0 when none), ``sp`` before ``crowns``: that is the
    stored JSON form of every turn so far (`Event.to_dict`), compared byte for byte.
    """

    @property
    def sp(self) -> int:
        return self.ledger.get("sp", 0)

    @property
    def crowns(self) -> int:
        return self.ledger.get("crowns", 0)


def event(event_id: EventId, args: Mapping[str, Any] | None, actor: str | None,
          public: bool, *, sp: int = 0, crowns: int = 0,
          week: int | None = None) -> EnGardeEvent:
    return EnGardeEvent(event_id.value, dict(args or {}), actor, public, week,
                        {"sp": sp, "crowns": crowns})
