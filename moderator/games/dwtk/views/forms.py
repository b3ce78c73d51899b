"""The order form mailed with each turn sheet (docs/dwtk-orders.md)."""

from __future__ import annotations

from moderator.games.dwtk.state import GameState, Phase
from moderator.games.dwtk.tables import Tables

_FORM = """\
# Down with the King — orders of {player} for {turn}
# One order per line; '#' starts a comment.
# Characters: PC, an id (23) or a name.
#
# Activities, in priority order: the first {activities} that are legal are done
# (DWTK 13.1; one while your PC is banished, imprisoned or hiding; none with
# Gout or Duel).
#   DO TITLE PC, 23                  13.4.1  one Title step each; IP by Title
#   DO OFFICE High Minister : 23     13.4.2  3 IP, a vacant office
#   DO COUNSELOR 23                  13.4.3  play a Monarch's Counselor card
#   DO FAVOR Prince Alan             13.4.4  Royal Favor Table for a FARC
#   DO PARDON 23 / DO AMNESTY        13.4.5-6
#   DO HENCHMAN 23                   13.4.7  play a Henchman card on a FAC
#   DO ASSASSINATE 32 [BY 42] [WITH 2 CARDS]
#                                    13.4.8  Intrigue + Assassination card(s)
#   DO SCANDAL 32 [BY 42]            13.4.9  with a Scandal counter
#   DO RECRUIT 23, 45                13.4.13 NCs of the Loyalty counters drawn
#   DO EXTRADITE 23 [WITH INTRIGUE]  13.4.11 Extradition on a wrongdoer abroad
#   DO TRAVEL PC, 23 TO Epalin       13.4.18 (or TO Fandonia)
#   DO DRAW EVENT|LOYALTY|OPPORTUNITY 13.4.19 1 IP
#   DO INTRIGUE <player>             13.4.12 a card from his hand
#   DO ESCAPE 23 TO Cronos           13.4.10 from prison or hiding
#   DO TREACHERY 23                  13.4.14 Intrigue + Treachery card
#   DO SEDUCE 23 BY 61               13.4.15 Intrigue; your lady seduces him
#   DO WEDDING 23 AND 61             13.4.16 after an accepted proposal
#   DO PRESTIGE Carousing [BUY +1]   13.4.17 one Prestige Table; 2 IP for +1
#   DO PRESTIGE Privateering [CAPTAIN 23]
#                                    13.4.17.1 with a war or the Pirates
# Not activities:
#   PROPOSE 23 TO 61                 18.4    1d6 + Romance modifier, 3-6 yes
#   ATTEND WEDDINGS                  13.4.16 roll on the Socializing Table
#   SOLICIT BRIBE 2                  13.4.20.1 your PC holds an office
#   BRIBE 22 WITH 3 IP [BY 23]       13.4.20.2 an NC Office Holder, 1 a turn
#   BUY 2 PP                         35.8    two IP each
#   ALIGN Prince Alan                14.5.19 play his Royal Alignment card
#   DISCARD Informer / KEEP Treachery
#                                    14.2.1  discard now; keep when forced to
# For the start of next turn:
#   BID High Minister : PC           6.1     2 IP; in priority order
#   PROBLEM Pirates FAIL|+|-         7.4, 7.6 your Minister lets it stand; +-1
#   DRAW ONLY EVENT                  24.3, 29.2, 30.2 one draw when not free
#   LOSE FIRST 23, Prince Alan       35.5    whom the PP limit takes first
# Counsel at the end of your Player Turn (15), the first legal line is made:
#   COUNSEL Make An Example ON Lawlessness NAMING 32 [BY 23]
# Reactions (14.1), kept until withdrawn, tried in player order on a match:
#   IF ANYONE|AN OPPONENT|I|<player> <EVENT> ANYONE|MINE|PC|<character>
#      THEN <response>
#   events: ASSASSINATES EXPOSES COURTS DUELS SEDUCES FREES EXTRADITES
#           HUNTS HEARS INTERROGATES TRIES BANISHES JAILS COUNSELS
#   responses: PLAY [n] <card> [+|-], HIDE, OBSTRUCT, MODIFY +|-, VETO,
#              JUDGE <judge>, CHOOSE <country>, PAY, SEND <henchman>
#              (send HELP for the table)
#   IF ANYONE HEARS MINE THEN PLAY Alibi    /   WITHDRAW REACTION 2
{status}
"""


def order_form(state: GameState, character: str, tables: Tables) -> str:
    p = state.players[character]
    if state.phase is Phase.MUSTER:
        turn = "the first turn"
        status = "# The court has not assembled yet: your noble is dealt at the first turn."
    else:
        turn = f"turn {state.turn}"
        status = f"# You hold {p.ip} IP and {p.pp} PP; {len(p.hand)} Event cards in hand."
    return _FORM.format(player=p.name, turn=turn, activities=tables.rule("activities"),
                        status=status)
