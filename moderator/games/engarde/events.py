"""Every event id the engine can emit; templates/engarde/events.md.j2 has one macro each.

Events carry ids and arguments only; the prose lives in the templates (style rule 6).
"""

from __future__ import annotations

from enum import StrEnum


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
    LOAN_LENT = "loan.lent"
    LOAN_RECEIVED = "loan.received"
    LOAN_REFUSED = "loan.refused"
    LOAN_REPAID = "loan.repaid"
    LOAN_TOO_EARLY = "loan.too_early"
    LOAN_UNMATCHED = "loan.unmatched"
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
    # EG §C–D: the month's orders
    ORDERS_SKIPPED = "orders.skipped"
    # EG §E: status
    STATUS_ROSE = "status.rose"
    STATUS_HELD = "status.held"
    STATUS_FELL = "status.fell"


ALL_EVENT_IDS: tuple[str, ...] = tuple(e.value for e in EventId)


def macro_name(event_id: str) -> str:
    """The jinja2 macro for an event id: dots become underscores."""
    return event_id.replace(".", "_")
