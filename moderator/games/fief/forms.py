"""The order form, pre-filled for one player (fief-email.md §7.3; orders/forms/fief.txt)."""

from __future__ import annotations

from moderator.games.fief.orders.format import format_order
from moderator.games.fief.orders.values import order_from_dict
from moderator.games.fief.state import GameState, Phase
from moderator.games.fief.tables import Tables


def order_form(state: GameState, player: str, tables: Tables) -> str:
    p = state.players[player]
    lines = []
    if state.phase is Phase.MUSTER:
        lines += [f"# Fief: England ({state.name}): muster orders for {p.name}",
                  "# Rank the cities where your family may start (one family a region):",
                  "# START London, York, Exeter",
                  "# and plan your first draws (Phase 2B, FE 2.0):",
                  "# DRAW FORTUNE THEN CHARACTER",
                  ""]
        return "\n".join(lines)
    nobles = [f"{n.name} at {n.city}" + ("" if n.free else " (captive)")
              for n in state.living() if n.family in p.families]
    lines += [f"# Fief: England ({state.name}): orders for Round {state.round}, {p.name} "
              f"({', '.join(p.families)})",
              f"# Player order: {', '.join(state.family_order())}.  Cash {p.cash}.  "
              f"Treasures {p.treasures}.",
              f"# Hand: {', '.join(p.hand) or 'empty'}",
              f"# Nobles: {'; '.join(nobles) or 'none'}",
              "## Phase 2 - play cards",
              "# PLAY NOBLE <name> AT <city> | PLAY GOOD WEATHER ON <region>",
              "# PLAY TAX ON <region>",
              "# PLAY ABBESS ON <noblewoman> AT <city> | PLAY BISHOP OF <city> ON <nobleman>",
              "## Phase 3 - income:  SCORCH <city>",
              "## Phase 4 - purchasing (in the order written)",
              "# BUY 2 MAN-AT-ARMS AT <city> | BUILD MILL AT <city> | BUILD STRONGHOLD AT <city>",
              "# BUY TITLE <region> FOR <noble>",
              "## Phase 5 - movement (two moves a noble)",
              "# MOVE <noble> WITH 1 KNIGHT, 2 MAN-AT-ARMS: <city> - <city> IF DENIED RETURN",
              "# MOVE <noble>: <port> = Sea V = <port>",
              "## Phase 6 - invaders:  DANEGELD AT <city> BY <noble>",
              "## Phase 7 - battles:  ATTACK <city> [AGAINST <player>]",
              f"## Round {state.round + 1}, Phase 1:  MARRY <noble> TO <noble> | "
              "CANDIDATE <lord> | VOTE <lord>, <lord>",
              f"## Round {state.round + 1}, Phase 2:  DISCARD <card> | DRAW FORTUNE THEN CHARACTER",
              "## Standing (kept until WITHDRAW n)"]
    for i, data in enumerate(p.standing, start=1):
        lines.append(f"#  {i} {format_order(tables, order_from_dict(data))}")
    lines.append("# ALLOW <player|ANYONE> TO PASS [AT <city>]")
    lines.append("")
    return "\n".join(lines)
