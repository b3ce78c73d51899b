"""The order form, pre-filled for one player (fief-email.md §7.3; orders/forms/fief.txt).

Every order has a commented reference line under its phase; the lines that begin
`# e.g.` are written for this family's situation (its nobles, hand, captives, sieges,
the opponents beside it) and parse as they stand once the `# e.g. ` is removed."""

from __future__ import annotations

from moderator.games.fief.orders.format import format_order
from moderator.games.fief.orders.values import order_from_dict
from moderator.games.fief.state import GameState, Noble, Phase, Player
from moderator.games.fief.tables import Tables

EG = "# e.g. "
WINDOWS = ("HEAR-YE ELECTION PARLIAMENT DISCARD DISASTERS CARDS INCOME PURCHASE MOVE "
           "INVADERS BATTLES PILLAGE END")


def order_form(state: GameState, player: str, tables: Tables) -> str:
    p = state.players[player]
    if state.phase is Phase.MUSTER:
        return "\n".join([f"# Fief: England ({state.name}): muster orders for {p.name}",
                          "# Rank the cities where your family may start (one family a region):",
                          "# START London, York, Exeter",
                          "# and plan your first draws (Phase 2B, FE 2.0):",
                          "# DRAW FORTUNE THEN CHARACTER",
                          ""])
    if state.phase is Phase.OVER:
        # Found playing by mail: the last sheet still offered "orders for Round 7".
        return (f"# Fief: England ({state.name}): the game is over (FE 8); no more orders "
                "are read.\n")
    mine = [n for n in state.living() if n.family in p.families]
    lines = _header(state, p, mine)
    lines += _phases_2_to_4(state, p, mine)
    lines += _phase_5(state, mine)
    lines += _phases_6_and_7(state, p, mine)
    lines += _next_round(state)
    lines += _any_time(state, p, mine, tables)
    lines += _standing(p, tables, {k: q.name for k, q in state.players.items()})
    return "\n".join([*lines, ""])


def _header(state: GameState, p: Player, mine: list[Noble]) -> list[str]:
    nobles = [f"{n.name} at {n.city}" + ("" if n.free else " (captive)") for n in mine]
    return [f"# Fief: England ({state.name}): orders for Round {state.round}, {p.name} "
            f"({', '.join(p.families)})",
            f"# Player order: {', '.join(state.family_order())}.  Cash {p.cash}.  "
            f"Treasures {p.treasures}.",
            f"# Hand: {', '.join(p.hand) or 'empty'}",
            f"# Nobles: {'; '.join(nobles) or 'none'}",
            "# Lines starting '# e.g.' fit your situation: remove the '# e.g. ' to use one."]


def _free(mine: list[Noble]) -> list[Noble]:
    return [n for n in mine if n.free]


def _opponents_beside(state: GameState, p: Player, noble: Noble) -> list[Noble]:
    """Free nobles of other players in ``noble``'s city, by key (never by arrival)."""
    return sorted((n for n in state.living() if n.free and n.city == noble.city
                   and n.family not in p.families), key=lambda n: n.key)


def _phases_2_to_4(state: GameState, p: Player, mine: list[Noble]) -> list[str]:
    lines = ["## Phase 2 - play cards",
             "# PLAY NOBLE <name> AT <city> | PLAY GOOD WEATHER ON <region> [IN MOVEMENT]",
             "# PLAY TAX ON <region> | PLAY TAX TITHE ON <cathedral city>",
             "# PLAY ABBESS ON <noblewoman> AT <city> | PLAY BISHOP OF <city> ON <nobleman>",
             "# PLAY FRENCH CROSSBOWMEN | PLAY BURGHER | MATA <card> WITH <player>",
             "# RETAINER <retainer> FROM <noble> TO <noble> [FOR <n>] | CHASUBLE STORMS FROM"
             " III TO IV",
             "## Phase 3 - income:  SCORCH <city>",
             "## Phase 4 - gifts (GIVE) and ransoms first, then the rest in the order written",
             "# BUY 2 MEN-AT-ARMS AT <city> | BUILD MILL AT <city> | BUILD STRONGHOLD AT <city>",
             "# BUY TITLE <region> FOR <noble> | GRANT <region> TO <noble> | TRANSFER <region>"
             " TO <noble>",
             "# GIVE 3 SHILLINGS [AND <card>] TO <player> | HIRE 2 CROSSBOWMEN AT <city>",
             "# LEND 2 CROSSBOWMEN TO <player> FOR 3 | HIRE 2 CROSSBOWMEN FROM <player> FOR 3"
             " AT <city>",
             "# RANSOM <captive> OFFER <n> | ACCEPT RANSOM FOR <captive> AT LEAST <n>",
             "# BUILD 2 TREBUCHETS AT <city> | REBUILD ABBEY <abbey> AT <city>"]
    for n in mine:
        if n.status == "captive":
            lines.append(f"{EG}RANSOM {n.name} OFFER 2")
    keys = {n.key for n in mine}
    for n in sorted(state.living(), key=lambda n: n.key):
        if n.status == "captive" and n.captor in keys:
            lines.append(f"{EG}ACCEPT RANSOM FOR {n.name} AT LEAST 4")
    return lines


def _phase_5(state: GameState, mine: list[Noble]) -> list[str]:
    lines = ["## Phase 5 - movement (two moves a noble)",
             "# MOVE <noble> WITH 1 KNIGHT, 2 MEN-AT-ARMS: <city> - <city> IF DENIED RETURN",
             "#   ... IF DENIED CAVALCADE | IF DENIED PASSAGE | IF DENIED BURGHER",
             "# MOVE <noble>: <port> = Sea V = <port> | MOVE <noble>: York ~ King's Lynn",
             "# CAVALCADE <noble> WITH 2 KNIGHT: <city> - <city> - <city>",
             "# ROYAL MOVE <noble> TO ROYAL STRONGHOLD | DRAW EXCALIBUR <noble>",
             "# PRESENT <relic> BY <noble> | LEAVE RELIC <relic> BY <noble> | TAKE RELIC <relic>"
             " BY <noble>"]
    for n in _free(mine):
        for relic in n.relics:
            verb = "PRESENT" if state.sovereign else "LEAVE RELIC"
            lines.append(f"{EG}{verb} {relic} BY {n.name}")
    return lines


def _phases_6_and_7(state: GameState, p: Player, mine: list[Noble]) -> list[str]:
    lines = ["## Phase 6 - invaders:  DANEGELD AT <city> BY <noble> | INTERVENE AT <city> BY"
             " <cleric>",
             "# AMBUSH LEADER AT <city> BY <noble> | ASSASSINATE LEADER AT <city>",
             "# AID INVADERS AT <city> WITH PASSAGE | HELP INVADERS AT <city> WITH PASSAGE",
             "## Phase 7 - battles:  ATTACK <city> [AGAINST <player>] [WITH PASSAGE]",
             "# JOIN <player> [AGAINST <player>] AT <city> | BETRAY AT <city> AFTER ROUND 1",
             "# TRUCE WITH <player> AT <city> [CEDE|TAKE] | END BATTLE AT <city>",
             "# WITHDRAW FROM <city> WITH PASSAGE [TO <city>] | TARGET <noble> AT <city>",
             "# HIRE 2 CROSSBOWMEN AT <city> IN BATTLE | SIEGE <city> | LIFT SIEGE AT <city>",
             "# SALLY <city> [BACK IF LOST 2] | PILLAGE <city> MILL|ABBEY|ENGINES"]
    seen: set[str] = set()
    for n in _free(mine):
        city = state.cities[n.city]
        if city.besieged_by in p.families and n.city not in seen:
            lines.append(f"{EG}LIFT SIEGE AT {n.city}")
        elif city.besieged_by and city.holder in p.families and n.city not in seen:
            lines.append(f"{EG}SALLY {n.city}")
        beside = _opponents_beside(state, p, n)
        if beside and n.city not in seen:
            other = state.players[state.families[beside[0].family].player].name
            lines.append(f"{EG}TRUCE WITH {other} AT {n.city}")
            lines.append(f"{EG}TARGET {beside[0].name} AT {n.city}")
        seen.add(n.city)
    return lines


def _next_round(state: GameState) -> list[str]:
    return [f"## Round {state.round + 1}, Phase 1:  MARRY <noble> TO <noble> | "
            "CANDIDATE <lord>",
            "# VOTE <lord>, <lord> (your FOR marker) | DECOY <lord> (no vote: to mislead)",
            "# CONVENE PARLIAMENT [SHARES <player> 4] | PARLIAMENT FOR | PARLIAMENT AGAINST",
            "# RELINQUISH <abbess> | PERMIT RELINQUISH <abbess> | APPOINT ABBESS <noblewoman>",
            f"## Round {state.round + 1}, Phase 2:  DISCARD <card> | DRAW FORTUNE THEN CHARACTER",
            "# DRAW FORTUNE THEN CHARACTER IF FIRST IS TAX ELSE FORTUNE DISASTERS AT MOST 1"]


def _any_time(state: GameState, p: Player, mine: list[Noble], tables: Tables) -> list[str]:
    """FE 2.6: Opportunity cards in a window, one-shot (`AT <window> ...`) or standing
    (`AT <window> IF <condition> PLAY ...`); the examples use the cards in hand."""
    lines = ["## Any time:  AT <window> [IF <condition>] PLAY <card order>",
             f"# windows: {WINDOWS}",
             "# conditions: <noble> IS HERETIC | <noble> IS CAPTIVE | <noble> AT <city> |"
             " INVADERS AT <city> | STORMS ON <region> | FAMINE ON <region>"]
    free = _free(mine)
    if not free:
        return lines
    n = free[0]
    region = tables.region_of(n.city).name
    hand = set(p.hand)
    beside = _opponents_beside(state, p, n)
    if "Good Weather" in hand:
        lines.append(f"{EG}AT MOVE IF STORMS ON {region} PLAY GOOD WEATHER ON {region}")
    if "Ambush" in hand and beside:
        lines.append(f"{EG}AT BATTLES AMBUSH {beside[0].name} BY {n.name}")
    if "Justice" in hand:
        lines += [f"{EG}AT END IF {h.name} IS HERETIC PLAY JUSTICE {h.name}"
                  for h in sorted(state.living(), key=lambda h: h.key)
                  if h.heresy and h.family not in p.families][:1]
    if "Rebellion" in hand:
        lines.append(f"{EG}IF ANYONE REBELS ANY THEN PLAY REBELLION")
    if "Passage" in hand:
        lines.append(f"{EG}IF AN OPPONENT REBELS ANY THEN PLAY PASSAGE")
    if state.invaders and p.cash >= 5:
        lines.append(f"{EG}IF INVADERS ENTER {n.city} THEN DANEGELD BY {n.name}")
    return lines


def _standing(p: Player, tables: Tables, players: dict[str, str]) -> list[str]:
    lines = ["## Standing (kept until WITHDRAW n)"]
    for i, data in enumerate(p.standing, start=1):
        lines.append(f"#  {i} {format_order(tables, order_from_dict(data), players)}")
    lines += ["# ALLOW <player|ANYONE> TO PASS [AT <city>] | ALLOW <player|ANYONE> TO ENTER"
              " [AT <city>]",
              "# LOSSES KNIGHT, MAN-AT-ARMS | SURRENDER IF TROOPS BELOW 2 | QUELL PAY|PRAY",
              "# DESTROY ENGINES IF TROOPS BELOW 2 | SPOILS TAKE|DESTROY | SKULL [ANY|FOR"
              " <noble>]",
              "# GARTER FIRST|NONE | IF INVADERS ENTER <city> THEN DANEGELD BY <noble>"]
    return lines
