"""Every event id the engine emits; templates/dwtk/events.md.j2 has one macro per id.

Events carry ids and arguments only; the prose lives in the template (style rule 6).
Characters travel as keys: noble ids as strings ("23"), royals by key ("alan"),
players by their key; the template's ``names`` mapping turns them into names.
"""

from __future__ import annotations

from enum import StrEnum


class EventId(StrEnum):
    """Stable event ids, grouped by rule."""

    # DWTK 3: setup
    SETUP_DONE = "setup.done"
    SETUP_PC = "setup.pc"
    SETUP_OFFICE = "setup.office"
    SETUP_HAND = "setup.hand"
    PLAYER_JOINED = "player.joined"
    # DWTK 5: first player
    FIRST_PLAYER = "turn.first_player"
    # DWTK 6, 16: offices
    OFFICE_FILLED = "office.filled"
    OFFICE_RANDOM = "office.random"
    OFFICE_BID_REFUSED = "office.bid_refused"
    OFFICE_DISCHARGED = "office.discharged"
    OFFICE_UNFILLED = "office.unfilled"
    GOVERNMENT_DISSOLVED = "office.dissolved"  # 36.14
    # DWTK 7: political problems, Foreign Wars
    PROBLEM_ARISES = "problem.arises"
    PROBLEM_RESOLVED = "problem.resolved"
    PROBLEM_UNRESOLVED = "problem.unresolved"
    PROBLEM_NONE_NEW = "problem.none_new"
    WAR_DECLARED = "war.declared"
    WAR_ENDED = "war.ended"
    WAR_EXPELLED = "war.expelled"
    SUPPORT_CHANGED = "support.changed"
    CRISIS_BEGINS = "crisis.begins"
    CRISIS_ENDS = "crisis.ends"
    # DWTK 8: Crown Events
    CROWN_EVENT = "crown.event"
    ROYAL_DEATH = "royal.death"
    PLAGUE_DEATH = "plague.death"
    INTRIGUE_DRAWN = "intrigue.drawn"
    INTRIGUE_SPARED = "intrigue.spared"
    COURT_BALL_ROLL = "court_ball.roll"
    COURT_BALL_BANNED = "court_ball.banned"
    COURT_BALL_BAN_LOSS = "court_ball.ban_loss"
    SCANDAL_OBJECT = "scandal.object"
    SCANDAL_RESULT = "scandal.result"
    SCANDAL_EXPOSED = "scandal.exposed"
    # DWTK 9: succession
    SUCCESSION = "succession.crowned"
    MOURNING = "succession.mourning"
    # DWTK 10-12: the player turn and its draws
    PLAYER_TURN = "turn.player"
    NO_PLAYER_TURN = "turn.no_player_turn"
    DRAW_LOYALTY = "draw.loyalty"
    DRAW_OPPORTUNITY = "draw.opportunity"
    DRAW_EVENT = "draw.event"
    DRAW_NO_LOYALTY = "draw.no_loyalty"
    OPPORTUNITY_IP = "opportunity.ip"
    DECK_RESHUFFLED = "deck.reshuffled"
    # DWTK 13: activities
    ACTIVITY_SKIPPED = "activity.skipped"
    TITLE_ACQUIRED = "activity.title"
    COUNSELOR_MADE = "activity.counselor"
    HENCHMAN_MADE = "activity.henchman"
    RECRUITED = "activity.recruit"
    FAVOR_COURTED = "activity.favor"
    PARDON = "activity.pardon"
    AMNESTY = "activity.amnesty"
    TRAVELLED = "activity.travel"
    DRAW_BOUGHT = "activity.draw"
    ASSASSINATION = "activity.assassination"
    # -- intrigue activities and single-use counters (treachery.py, seduction.py, player.py)
    TREACHERY = "activity.treachery"  # 13.4.14
    SEDUCTION = "activity.seduction"  # 13.4.15
    EXTRA_ACTIVITY_CARD = "activity.extra_card"  # 14.5.20
    # DWTK 14: Event cards
    CARDS_DISCARDED = "cards.discarded"
    ROYAL_ALIGNED = "royal.aligned"
    FARC_LOST = "royal.farc_lost"
    # DWTK 14.1: standing reactions (orders/reaction.py, reactions.py)
    REACTION_STORED = "reaction.stored"
    REACTION_WITHDRAWN = "reaction.withdrawn"
    REACTION_CARD = "reaction.card"
    # DWTK 23-31: the justice chain (justice.py, fugitives.py)
    JUSTICE_ACCUSED = "justice.accused"
    JUSTICE_HID = "justice.hid"
    JUSTICE_UNHID = "justice.unhid"  # 24.8 (hiding.py)
    JUSTICE_FORCED_OUT = "justice.forced_out"  # 24.7: an NC cannot hide (hiding.py)
    JUSTICE_ESCAPE = "justice.escape"  # 13.4.10 (escape.py)
    JUSTICE_RETURNED = "justice.returned"  # 24.8: a wrongdoer out of hiding
    JUSTICE_SUICIDE = "justice.suicide"  # 29.9, 30.10
    RESTORED = "justice.restored"  # 36.10.4
    JUSTICE_HEARING = "justice.hearing"
    JUSTICE_INTERROGATION = "justice.interrogation"
    JUSTICE_IMPLICATED = "justice.implicated"
    JUSTICE_TRIAL = "justice.trial"
    JUSTICE_BANISHED = "justice.banished"
    JUSTICE_IMPRISONED = "justice.imprisoned"
    JUSTICE_EXECUTED = "justice.executed"
    JUSTICE_MANHUNT = "justice.manhunt"
    JUSTICE_CAPTURED = "justice.captured"
    JUSTICE_EXTRADITION = "justice.extradition"
    JUSTICE_PRISON_ROLL = "justice.prison_roll"
    # DWTK 13.4.20 bribery (bribery.py); 7.10.1 and 25.11 justice abroad (justice.py)
    BRIBE_SOLICITED = "bribe.solicited"
    BRIBE_OFFERED = "bribe.offered"
    BRIBE_USED = "bribe.used"
    JUSTICE_SENT_HOME = "justice.sent_home"  # 25.11: brought to Fandonia for justice
    JUSTICE_AWAITS_PEACE = "justice.awaits_peace"  # 7.10.1: stuck in a country at war
    JUSTICE_FOREIGN_MANHUNT = "justice.foreign_manhunt"  # 25.11: hiding from foreign arrest
    # DWTK 15: counseling (counseling.py)
    COUNSEL_MADE = "counsel.made"
    COUNSEL_REFUSED = "counsel.refused"
    COUNSEL_EFFECT = "counsel.effect"
    # DWTK 19: duels (duels.py)
    DUEL_NONE = "duel.none"
    DUEL_STAND_IN = "duel.stand_in"
    DUEL_AVOIDED = "duel.avoided"
    DUEL_OPPONENT = "duel.opponent"
    DUEL_FOUGHT = "duel.fought"
    DUEL_KILLER_ROLL = "duel.killer_roll"
    # -- DWTK 13.4.16-13.4.17.1, 18, 9.2 consort (prestige.py, privateering.py, romance.py)
    PRESTIGE_ROLL = "prestige.roll"
    PRIVATEER_SAILS = "privateer.sails"
    PRIVATEER_ROLL = "privateer.roll"
    PRIVATEER_ABILITY = "privateer.ability"
    PRIVATEER_HOME = "privateer.home"
    PRIVATEER_LOST = "privateer.lost"
    PROPOSAL = "romance.proposal"
    PROPOSAL_NEGATED = "romance.negated"
    FREE_PROPOSAL_LOST = "romance.free_lost"
    WEDDING = "romance.wedding"
    CONSORT = "succession.consort"
    # -- end of the 13.4.16-13.4.17.1 / 18 block
    # DWTK 35: PP
    PP_BOUGHT = "pp.bought"
    FACTION_LOST = "faction.lost"
    # The press (orders/press.py): an announcement printed in the Courier
    PRESS_ANNOUNCEMENT = "press.announcement"
    # DWTK 31.5: a PC dies (his player's losses itemised, when his heir comes back)
    PC_DIED = "pc.died"
    # DWTK 36: usurpation (usurpation.py)
    USURPATION = "usurp.attempt"
    USURPER_CROWNED = "usurp.crowned"
    # DWTK 37
    VICTORY = "game.victory"
    GAME_DRAWN = "game.drawn"


ALL_EVENT_IDS = tuple(e.value for e in EventId)


def macro_name(event_id: str) -> str:
    """``court_ball.roll`` -> ``court_ball_roll`` (the template macro)."""
    return event_id.replace(".", "_")
