"""Why the rules refused what a player ordered, or why something befell his faction, in his
words: the one table read by the turn sheets and the gazette (views put it in the
``names`` every event macro gets, as ``reason:<code>``) and by the receipt's forecast.

The engine only emits a code (``Refused("not_farc")``, an event's ``reason``); the words
live here, each with the DWTK section it comes from. A code ``<code>:<card kind>``
(``no_card:monarchs_counselor``) names the card (`CARD_REASONS`); ``no_turn:<code>`` is
why a player has no Player Turn (``turn.no_player_turn``'s ``why``); ``cause:<code>``
why a character is accused of wrongdoing or must fight a duel (the events' ``cause``).
Phrases are written to read inside parentheses after what was not done ("Not done: favor
(...)") and after "DO FAVOR:" in the forecast; those that public events carry (a
discharge, a death, a discard) say no "you". tests/dwtk/test_reasons.py checks every
code the engine can emit has one.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

REASONS: Final[Mapping[str, str]] = MappingProxyType({
    # -- any activity (13, 12, 34, 35) ------------------------------------------------
    "ip": "not enough IP left to spend, DWTK 34.4 (and none at all on a Famine turn, "
          "34.6; at most half while the government is in crisis, 33.2.1)",
    "pp": "your PP would not cover your faction's Status, DWTK 35.4",
    "pp_limit": "over the faction's PP limit, DWTK 35.4, 35.5",
    "same_activity_twice": "the same activity only once a turn, DWTK 13.1",
    "no_activities_left": "no activity left this turn: two a turn, and one per Extra "
                          "Activity, one while your PC is banished, imprisoned or hiding, "
                          "none with a Duel or Gout counter, DWTK 13.1, 12.3.2, 12.3.6, "
                          "12.3.7",
    "condition_not_met": "its IF condition does not hold",
    "not_pc_or_fac": "not your PC or a living FAC of yours, DWTK 13.4",
    "no_pc": "your PC is dead or not yet in play, DWTK 31.5",
    "at_sea": "at sea as a privateer's captain, who takes part in nothing else, "
              "DWTK 13.4.17.1",
    "imprisoned": "imprisoned, DWTK 30.3, 30.4, 30.6",
    "situation": "banished, imprisoned, in hiding or stuck in a country at war, "
                 "DWTK 6.3, 7.10.1",
    "dead": "dead, DWTK 31",
    "no_card": "you hold no Royal Alignment card for that royal, DWTK 14.5.19",
    "no_loyalty_counter": "you hold no Loyalty counter for that character, DWTK 11, 13.4.13",
    "no_intrigue_counter": "you have no Intrigue counter or card, nor the Any Activity "
                           "counter, DWTK 12.3.1, 12.3.3, 14.5.7",
    "no_scandal_counter": "you drew no Scandal counter, nor the Any Activity counter, "
                          "DWTK 12.3.1, 12.3.4",
    "no_loyalty_left": "no Loyalty counter is left to draw, DWTK 11.4, 13.4.19",
    # -- titles and offices (13.4.1, 13.4.2, 6, 16, 36.14) --------------------------------
    "cannot_take_title": "that character may take no Title now: none while banished, "
                         "imprisoned, in hiding or stuck in a country at war, DWTK 13.4.1",
    "already_duke": "already a Duke or Duchess, the highest Title, DWTK 13.4.1",
    "holds_office": "already holds an office: one at a time, and an Office Holder moves "
                    "only in the Office Phase, DWTK 16.2, 6.2",
    "not_office_holder": "only PCs, FACs and NCs 11-44 may hold an office, DWTK 16.1",
    "not_vacant": "the office is not vacant, DWTK 6.1, 13.4.2",
    "suspended": "the embassy is closed by the war, DWTK 7.10.4",
    "at_war": "a country at war with Fandonia: no one goes there, comes back from there "
              "or serves from there, DWTK 7.10.1, 6.3",
    "not_yours": "a character it names is not a living character of your faction, "
                 "DWTK 6.1, 18.4",
    "no_character": "no character named to appoint, DWTK 36.14",
    # -- counselors, henchmen, favor, recruits (13.4.3, 13.4.4, 13.4.7, 13.4.13) ----------
    "female": "a woman may not be a Monarch's Counselor, DWTK 13.4.3",
    "office_holder": "holds an office or is a Monarch's Counselor, DWTK 13.4.3, 24.4",
    "not_farc": "FAVOR and USURP need a royal who is your FARC and not the Monarch, "
                "DWTK 13.4.4, 36.2",
    "no_courtier": "no free PC or henchman in Fandonia to court the favor, "
                   "DWTK 13.4.4, 17.2.4",
    "pc": "a PC is never a henchman: only a FAC, DWTK 13.4.7",
    "already_henchman": "already a henchman, DWTK 13.4.7",
    "not_neutral": "not a neutral character, DWTK 13.4.13",
    "monarch": "the Monarch may not be recruited, DWTK 13.4.13",
    # -- travel, justice, escape (13.4.5-13.4.11, 13.4.18, 20, 24, 25, 29, 30) -------------
    "never_abroad": "that character may never travel, DWTK 13.4.18, 20.7",
    "ambassador": "an Ambassador is always abroad at the post, DWTK 20.4",
    "failed_minister": "a Minister with an unresolved problem may not travel, DWTK 20.3",
    "already_there": "already in that country, DWTK 13.4.18",
    "not_a_noble": "not a noble: no royal may be that, DWTK 13.4.5, 13.4.15, 22",
    "nothing_to_pardon": "neither banished, imprisoned nor a wrongdoer, DWTK 13.4.5",
    "not_extraditable": "not a wrongdoer abroad who may be extradited, DWTK 25.1, 25.12",
    "not_imprisoned_or_hiding": "neither imprisoned nor in hiding, DWTK 13.4.10",
    "prison_guards_only_from_prison": "Prison Guards free only a prisoner, DWTK 14.5.14",
    "port_guards_only_from_hiding_in_fandonia": "Port Guards free only one hiding in "
                                                "Fandonia, DWTK 14.5.15",
    "already_hiding": "already in hiding, DWTK 24",
    "same_turn": "not into and out of hiding in the same turn, DWTK 24.2",
    "not_hiding": "not in hiding, DWTK 24.8",
    "not_banished_or_imprisoned": "neither banished nor imprisoned, DWTK 29.9, 30.10",
    "too_soon": "not yet three turns banished or imprisoned, DWTK 29.9, 30.10",
    "no_farc_monarch": "RESTORE needs a FARC Monarch of yours, DWTK 36.10.4",
    "nothing_to_restore": "already in a normal situation, DWTK 36.10.4",
    # -- intrigue, treachery, seduction, assassination (13.4.8, 13.4.12-13.4.15, 21) --------
    "not_an_opponent": "not an opponent, DWTK 13.4.12",
    "spared": "that hand is safe: three cards or fewer, or a FARC Monarch's player, "
              "DWTK 13.4.12, 36.10.1",
    "no_target": "no one who may be the target, DWTK 13.4.8, 13.4.14",
    "not_an_eac": "not a character of another player's faction, DWTK 13.4.14",
    "not_an_earc": "not a royal of another player's faction, DWTK 13.4.14",
    "never": "George and Thomas are never recruited by treachery, DWTK 13.4.14",
    "farc_monarch": "the Monarch is a FARC: never recruited by treachery nor wed, and its "
                    "player makes no counsel, DWTK 36.10.2, 36.10.5",
    "married": "married, DWTK 18.4, 18.7, 13.4.15",
    "not_in_the_same_country": "not in the same country, DWTK 17.6, 20.6.3, 20.6.4",
    "no_seductress": "SEDUCE needs BY a woman of your faction, DWTK 13.4.15",
    "not_female": "only a woman may seduce, DWTK 13.4.15",
    "not_a_man_to_seduce": "only a man may be seduced, never the Archbishop, DWTK 13.4.15",
    "not_an_eac_or_nc": "not a man of another faction nor a neutral one, DWTK 13.4.15",
    "no_assassin": "no free PC or henchman to make the attempt, DWTK 13.4.8, 17.2.1",
    "target_out_of_reach": "out of reach: dead, in hiding, in prison, at sea or stuck in a "
                           "country at war, DWTK 13.4.8, 30.7, 13.4.17.1",
    # -- prestige tables, privateering (13.4.17) ------------------------------------------
    "no_such_table": "no such Prestige Table, DWTK 13.4.17",
    "female_pc": "a female PC may never consult the Sporting Table, DWTK 13.4.17",
    "one_table_a_turn": "one Prestige Table a turn, DWTK 13.4.17",
    "modifier_at_plus_two": "the table's modifier is already at the most, +2, DWTK 13.4.17",
    "no_war_or_pirates": "privateering needs a foreign war or the Pirates problem, "
                         "DWTK 13.4.17.1",
    "privateer_at_sea": "your privateer is still at sea, DWTK 13.4.17.1",
    "voyage_ended_this_turn": "a voyage of yours ended this turn, DWTK 13.4.17.1",
    "not_a_henchman": "not a henchman of yours free to act there, DWTK 17.2, 17.6",
    # -- bribery (13.4.20) ----------------------------------------------------------------
    "no_office": "your PC holds no office nor counselorship, DWTK 13.4.20.1",
    "not_same_country": "the two are not in the same country, DWTK 13.4.20.2, 18.4.2",
    "already_bribed": "already bribed this turn, DWTK 13.4.20.2",
    "not_an_nc_office_holder": "not a neutral Office Holder, DWTK 13.4.20.2",
    # -- royal alignment, usurpation (14.5.19, 36) ----------------------------------------
    "not_available": "that royal is dead, the Monarch or already a FARC, DWTK 14.5.19",
    "catherine_while_george": "Queen Catherine may not be aligned while George reigns, "
                              "DWTK 14.5.19",
    "has_farc": "Thomas stands only for a player with no FARC, DWTK 36.3",
    "no_monarch": "there is no Monarch to usurp, DWTK 36.1",
    "own_monarch": "the Monarch is already your FARC, DWTK 36.1",
    # -- counsel (15) ---------------------------------------------------------------------
    "not_a_counselor": "that character may not counsel: an Office Holder or Monarch's "
                       "Counselor not abroad is needed, DWTK 15.2",
    "no_counselor": "no Office Holder or Monarch's Counselor of yours may counsel, DWTK 15.2",
    "no_counsel_this_turn": "no counsel on a Famine or Plague turn, DWTK 15.5",
    "table_not_open": "only an unresolved problem's table or the Crown Event's is open, "
                      "DWTK 15.4",
    "rotation": "the same counsel again only after every counsel of that table, DWTK 15.9",
    # -- proposals and weddings (18, 13.4.16) ---------------------------------------------
    "may_never_marry": "may never marry, DWTK 18.1",
    "already_betrothed": "already betrothed, DWTK 18.4.6",
    "same_sex": "a marriage is of a man and a woman, DWTK 18.2",
    "royals_never_propose": "a royal never proposes, DWTK 18.4.4",
    "pc_proposed_to": "a PC may propose but not be proposed to, DWTK 18.4.1",
    "pc_to_royal": "a PC may not propose to a royal, DWTK 18.4.1, 18.4.4",
    "george_never_remarries": "King George never remarries, DWTK 18.5",
    "status_below_four": "only a FAC of Status 4 or more may propose to a FARC, DWTK 18.4.4",
    "once_a_turn": "one proposal a turn for each character, DWTK 18.4.3",
    "no_accepted_proposal": "no accepted proposal between the two, DWTK 13.4.16, 18.4.7",
    "not_in_fandonia": "both must be in Fandonia, DWTK 13.4.16",
    "imprisoned_or_hiding": "imprisoned or in hiding, DWTK 13.4.16",
    # -- losing a member, cards discarded (14.2, 35.5, 9.4, 31.5) -------------------------
    "royal_favor": "lost on the Royal Favor Table, DWTK 13.4.4",
    "proposal_spurned": "the proposal was spurned, DWTK 18.4",
    "changed_sides": "changed sides, DWTK 14.2.4",
    "died": "died, DWTK 14.2.4, 16.4",
    "consort": "now the Monarch's consort, DWTK 14.2.4, 18.10",
    "pc_death": "the PC died, DWTK 31.5",
    "mourning": "mourning for the Monarch, DWTK 9.4",
    "voluntary": "by choice, DWTK 14.2",
    "hand_limit": "over twelve cards in hand, DWTK 14.2.1",
    "counselor_hiding": "a Monarch's Counselor gone into hiding, DWTK 13.4.3",
    "counselor_banished": "a Monarch's Counselor banished, DWTK 13.4.3",
    "counselor_imprisoned": "a Monarch's Counselor imprisoned, DWTK 13.4.3",
    # -- leaving an office (16.4, 7.8, 7.10.4, 9.4, 24.4, 29.3, 36.14) ---------------------
    "counsel": "on a counsel the Monarch accepted, DWTK 15.7",
    "dissolved": "the government is dissolved, DWTK 36.14",
    "three_failures": "three failures in a row, DWTK 7.8, 16.4",
    "expelled": "expelled by the war, DWTK 7.10.4",
    "new_monarch": "a new Monarch, DWTK 9.4",
    "hiding": "gone into hiding, DWTK 24.4",
    "banished": "banished, DWTK 29.3",
    # -- deaths (31, 19, 21, 27, 36) ------------------------------------------------------
    "executed": "executed, DWTK 28.6.5, 31.6",
    "interrogation": "died under interrogation, DWTK 27.4",
    "plague": "carried off by the plague, DWTK 8.4.7",
    "suicide": "suicide, DWTK 29.9, 30.10",
    "assassinated": "assassinated, DWTK 13.4.8",
    "assassination": "killed in an assassination attempt, DWTK 21",
    "privateering": "lost at sea privateering, DWTK 13.4.17.1",
    "duel": "killed in a duel, DWTK 19",
    "usurped": "overthrown with the FARC Monarch, DWTK 36.9",
    "usurpation_failed": "the usurpation failed, DWTK 36.7",
    # -- why a player has no Player Turn (start.has_player_turn: 31.5, 7.10.3) ------------
    "no_turn:no_pc": "no PC in play yet",
    "no_turn:lost": "a turn lost to the PC's death or the FARC Monarch's, DWTK 31.5, 36.11",
    "no_turn:dead": "the heir is not yet face up, DWTK 31.5",
    "no_turn:at_war": "the PC is stuck in a country at war with Fandonia, DWTK 7.10.3",
    # -- why a character is accused of wrongdoing (23.1) or must fight a duel (19.1); the
    #    character may be a woman, so no "he" or "his" here -------------------------------
    "cause:scandal": "the Scandal Table, DWTK 22, 23.1",
    "cause:scandal_exposed": "exposing a scandal that turned on the exposer, DWTK 13.4.9, 22",
    "cause:prestige:carousing": "the Carousing Table, DWTK 13.4.17, 23.1",
    "cause:prestige:sporting": "the Sporting Table, DWTK 13.4.17, 23.1",
    "cause:prestige:romance": "the Romance Table, DWTK 13.4.17, 23.1",
    "cause:prestige:socializing": "the Socializing Table, DWTK 13.4.17, 23.1",
    "cause:prestige:privateering": "the privateer fired on a neutral ship, "
                                   "DWTK 13.4.17.1, 23.1",
    "cause:court_ball": "the Court Ball Table, DWTK 10, 19.7.3, 23.1",
    "cause:counsel": "a counsel that displeased the Monarch, DWTK 15, 23.1",
    "cause:intrigue": "an illegal card drawn from the player's hand, DWTK 23.1, 23.3",
    "cause:assassination": "an assassination attempt, DWTK 21, 23.1",
    "cause:duel": "killing the opponent in a duel, DWTK 19.10",
    "cause:bribery": "a bribe, DWTK 13.4.20.1, 13.4.20.2",
    "cause:implicated": "implicated by a wrongdoer under interrogation, DWTK 27",
    "cause:duel_counter": "the Duel counter, DWTK 12.3.6, 19.1",
    "cause:carousing": "drunk at the Carousing Table (+1 to the roll), DWTK 13.4.17, 19.9",
    "cause:sporting": "the Sporting Table, DWTK 13.4.17, 19.1",
    "cause:romance": "the Romance Table, DWTK 13.4.17, 19.1",
    "cause:socializing": "the Socializing Table, DWTK 13.4.17, 19.1",
})

# ``<code>:<card kind>`` -> its words, ``{card}`` the card's name (13.2: an activity's cards).
CARD_REASONS: Final[Mapping[str, str]] = MappingProxyType({
    "no_card": "you hold no {card} card, DWTK 13.2, 14.5",
})


def phrase(code: str, cards: Mapping[str, str]) -> str:
    """The words for ``code``; ``cards``: card kind -> name.  An unknown code is shown
    as written (tests/dwtk/test_reasons.py keeps there from being one)."""
    head, colon, kind = code.partition(":")
    if colon and head in CARD_REASONS:
        return CARD_REASONS[head].format(card=cards.get(kind, kind.replace("_", " ")))
    return REASONS.get(code, code.replace("_", " "))


def phrases(cards: Mapping[str, str]) -> dict[str, str]:
    """Every code, with ``<code>:<kind>`` for each of these cards (kind -> name), -> its
    words: what the views add to their names."""
    found = dict(REASONS)
    found.update({f"{head}:{kind}": phrase(f"{head}:{kind}", cards)
                  for head in CARD_REASONS for kind in cards})
    return found
