"""Random legal-looking orders for whole games (the property test and benchmarks).

The generator reads only what the player could see, writes order *text* (so the parser is
exercised too) and draws its choices from its own `random.Random`, seeded per game: the
moderator's dice never serve it.
"""

from __future__ import annotations

import random
from typing import Any

from moderator.games.fief.tables import Tables

UNIT_WORDS = {"knight": "KNIGHT", "men_at_arms": "MAN-AT-ARMS", "archer": "ARCHER",
              "bombard": "BOMBARD"}


def random_orders(state: dict[str, Any], player: str, tables: Tables,
                  rng: random.Random) -> str:
    p = state["players"][player]
    fams = p["families"]
    lines: list[str] = []
    if state["phase"] == "muster":
        cities = list(tables.city_names)
        rng.shuffle(cities)
        return f"START {', '.join(cities[:3])}\nDRAW FORTUNE THEN CHARACTER\n"
    mine = [n for n in state["nobles"].values() if n["family"] in fams and n["status"] != "dead"]
    held = sorted(c for c, v in state["cities"].items() if v["holder"] in fams)
    for card in p["hand"]:
        if card.startswith("Noble ") and held:
            lines.append(f"PLAY NOBLE {card[6:]} AT {rng.choice(held)}")
        elif card in ("Bountiful Harvest", "Good Weather"):
            lines.append(f"PLAY {card.upper()} ON {rng.choice(tables.regions).name}")
        elif card == "Tax" and rng.random() < 0.3:
            lines.append(f"PLAY TAX TITHE ON {rng.choice(tables.districts).cathedral}")
        elif card == "Tax":
            lines.append(f"PLAY TAX ON {rng.choice(tables.regions).name}")
        elif card.startswith(("Bishop", "Archbishop")) and mine:
            lines.append(f"PLAY {card.upper()} ON {rng.choice(mine)['name']}")
        elif card == "Abbess" and mine and held:
            lines.append(f"PLAY ABBESS ON {rng.choice(mine)['name']} AT {rng.choice(held)}")
        elif card == "Justice":
            heretics = [n for n in state["nobles"].values() if n["heresy"]]
            if heretics:
                lines.append(f"JUSTICE {heretics[0]['name']}")
        elif card == "Ambush" and mine:
            me = rng.choice(mine)
            near = [n for n in state["nobles"].values() if n["city"] == me["city"]
                    and n["family"] not in fams and n["status"] == "free"]
            if near:
                lines.append(f"AMBUSH {near[0]['name']} BY {me['name']}")
        elif card == "Passage":
            held = [n for n in mine if n["status"] == "captive"]
            if held:
                lines.append(f"PASSAGE FREE {held[0]['name']}")
        elif card in ("French Crossbowmen", "Flemish Crossbowmen", "Burgher (3 votes)",
                      "Burgher (5 votes)"):
            lines.append(f"PLAY {card.upper()}")
        elif card == "Rebellion":
            extra = rng.choice(["", "", " WITH PASSAGE", " WITH BURGHER PASSAGE"])
            lines.append(f"REBELLION AT {rng.choice(tables.city_names)}{extra}")
        elif card == "Assassination" and mine:
            target = rng.choice(sorted(state["nobles"].values(), key=lambda n: n["key"]))
            if target["status"] != "dead":
                lines.append(f"ASSASSINATE {target['name']} BY {rng.choice(mine)['name']}")
    for n in sorted(state["nobles"].values(), key=lambda n: n["key"]):
        if n["captor"] == "bandits" and rng.random() < 0.5:
            lines.append(f"INTERDICT {n['name']}")     # FE 13.4, refused unless royal
            break
    if (p["slot"] or "").startswith("Burgher") and rng.random() < 0.3:
        lines.append(f"BURGHER REBELLION AT {rng.choice(tables.city_names)}")
    if rng.random() < 0.1:
        lines.append(rng.choice(["IF ANYONE REBELS ANY THEN PLAY REBELLION",
                                 "IF AN OPPONENT REBELS ANY THEN PLAY PASSAGE",
                                 "IF ANYONE REBELS ANY THEN PLAY BURGHER REBELLION"]))
    if rng.random() < 0.2:    # FAQ P2 F10: an Opportunity card at the Discard instead
        lines = [f"AT DISCARD {line}" if line.startswith(("JUSTICE", "PASSAGE FREE"))
                 else line for line in lines]
    if held and rng.random() < 0.2:
        lines.append(f"SCORCH {rng.choice(held)}")
    if held and rng.random() < 0.1:
        lines.append(f"PILLAGE {rng.choice(held)} {rng.choice(['MILL', 'ABBEY'])}")
    king = state["sovereign"]
    if king and state["nobles"][king]["family"] in fams:
        if held and rng.random() < 0.3:
            lines.append(f"BUILD ROYAL STRONGHOLD AT {rng.choice(held)}")
        if rng.random() < 0.3:
            lines.append(f"ROYAL MOVE {state['nobles'][king]['name']} TO ROYAL STRONGHOLD")
        if rng.random() < 0.5:
            others = [k for k in state["players"] if k != player]
            friend = state["players"][rng.choice(others)]["name"]
            lines.append(f"CONVENE PARLIAMENT SHARES {friend} 3")
        for region in tables.regions:
            if mine and rng.random() < 0.3:
                lines.append(f"GRANT {region.name} TO {rng.choice(mine)['name']}")
    lines.append(rng.choice(["PARLIAMENT FOR", "PARLIAMENT AGAINST",
                             "PARLIAMENT FOR WITH BURGHER"]))
    if p["slot"] and "Crossbow" in p["slot"] and held:
        lines.append(f"HIRE {rng.randint(1, 3)} CROSSBOWMEN AT {rng.choice(held)}")
    if state["sovereign"] and rng.random() < 0.5:
        lines.append(rng.choice(["GARTER FIRST", "GARTER NONE"]))
    for noble in mine:
        for relic in noble["relics"]:
            lines.append(f"PRESENT {relic} BY {noble['name']}")
    lords = [n for n in mine if len(n["titles"]) > 1]
    if lords and len(mine) > 1 and rng.random() < 0.5:
        region = tables.region(rng.choice(lords[0]["titles"]))
        other = next(n for n in mine if n["key"] != lords[0]["key"])
        lines.append(f"TRANSFER {region.name} TO {other['name']}")
    for _ in range(rng.randint(0, 3)):
        if held:
            unit = rng.choice(list(UNIT_WORDS.values()))
            lines.append(f"BUY {rng.randint(1, 3)} {unit} AT {rng.choice(held)}")
    if held and rng.random() < 0.4:
        lines.append(f"BUILD {rng.choice(['MILL', 'STRONGHOLD'])} AT {rng.choice(held)}")
    for region in tables.regions:
        if mine and rng.random() < 0.3:
            lines.append(f"BUY TITLE {region.name} FOR {rng.choice(mine)['name']}")
    for noble in mine:
        if noble["status"] != "free" or rng.random() < 0.3:
            continue
        here = noble["city"]
        units = state["cities"][here]["troops"].get(noble["family"], {})
        take = [f"{rng.randint(1, n)} {UNIT_WORDS[u]}" for u, n in sorted(units.items())
                if u in UNIT_WORDS and n and rng.random() < 0.7]
        path = [here]
        steps = []
        for _ in range(rng.randint(1, 2)):
            last = path[-1]
            if last in tables.bandit_cities and rng.random() < 0.3:
                path.append(rng.choice([c for c in tables.bandit_cities if c != last]))
                steps.append(" ~ ")
            else:
                path.append(rng.choice(tables.neighbours(last)))
                steps.append(" - ")
        text = path[0] + "".join(sep + city for sep, city in zip(steps, path[1:], strict=True))
        with_ = f" WITH {', '.join(take)}" if take else ""
        deny = rng.choice(["", " IF DENIED RETURN", " IF DENIED CAVALCADE",
                          " IF DENIED PASSAGE"])
        lines.append(f"MOVE {noble['name']}{with_}: {text}{deny}")
    if state["excalibur_city"]:
        for noble in mine:
            if noble["city"] == state["excalibur_city"]:
                lines.append(f"DRAW EXCALIBUR {noble['name']}")
    if rng.random() < 0.1:
        lines.append(rng.choice(["LOSSES KNIGHT, ARCHER", "LOSSES ARCHER, MAN-AT-ARMS",
                                 "LOSSES MAN-AT-ARMS"]))
    others = [k for k in state["players"] if k != player]
    if others and p["cash"] and rng.random() < 0.2:
        lines.append(f"GIVE {rng.randint(1, p['cash'])} SHILLINGS TO "
                     f"{state['players'][rng.choice(others)]['name']}")
    if others and rng.random() < 0.3:
        lines.append(f"ALLOW {state['players'][rng.choice(others)]['name']} TO PASS")
    for city in sorted(state["cities"]):
        c = state["cities"][city]
        if (any(f in fams for f in c["troops"]) and any(f not in fams for f in c["troops"])
                and rng.random() < 0.7):
            tunnels = "Passage" in p["hand"] and c["building"] and rng.random() < 0.5
            lines.append(f"ATTACK {city}" + (" WITH PASSAGE" if tunnels else ""))
            if c["building"] in ("stronghold", "fortified") and rng.random() < 0.5:
                lines.append(f"SIEGE {city}")
        if c["besieged_by"] in fams:
            lines.append(rng.choice([f"BUILD 2 TREBUCHET AT {city}", f"LIFT SIEGE AT {city}",
                                     f"BUILD 1 TREBUCHET AT {city}"]))
    for a in state["invaders"].values():
        if mine and rng.random() < 0.2:
            lines.append(f"DANEGELD AT {a['city']} BY {rng.choice(mine)['name']}")
        clerics = [n for n in mine if n["clergy"] or n["abbess"]]
        if clerics and rng.random() < 0.3:
            lines.append(f"INTERVENE AT {a['city']} BY {clerics[0]['name']}")
        if "Assassination" in p["hand"] and rng.random() < 0.3:
            lines.append(f"ASSASSINATE LEADER AT {a['city']}")
    if rng.random() < 0.1:
        lines.append(rng.choice(["QUELL PAY", "QUELL PRAY", "SKULL"]))
    for noble in mine:
        if noble["retainer"] == "Mata" and p["hand"] and others:
            lines.append(f"MATA {p['hand'][0]} WITH {state['players'][rng.choice(others)]['name']}")
        if "Chasuble of Thomas Becket" in noble["relics"]:
            lines.append("CHASUBLE STORMS FROM III TO IV")
        if "Saint Eanswith's Shinbone" in noble["relics"]:
            lines.append("SHINBONE")
        if noble["status"] == "free" and rng.random() < 0.05:
            lines.append(f"IF INVADERS ENTER {noble['city']} THEN DANEGELD BY {noble['name']}")
    free = [n for n in state["nobles"].values() if n["status"] != "dead" and not n["spouse"]]
    for noble in mine:
        if not noble["spouse"] and rng.random() < 0.3:
            partners = [n for n in free if n["sex"] != noble["sex"] and n["family"] not in fams]
            if partners:
                lines.append(f"MARRY {noble['name']} TO {rng.choice(partners)['name']}")
    lords = [n for n in state["nobles"].values() if n["titles"] and n["status"] == "free"]
    if lords and rng.random() < 0.5:
        lines.append(f"CANDIDATE {rng.choice(lords)['name']}")
    if state["candidates"]:
        lines.append(f"VOTE {state['nobles'][rng.choice(state['candidates'])]['name']}")
    lines = _cards_share(state, player, tables, rng, lines)
    if p["hand"] and rng.random() < 0.3:
        lines.append(f"DISCARD {rng.choice(p['hand'])}")
    lines.append(rng.choice(["DRAW FORTUNE THEN CHARACTER", "DRAW CHARACTER THEN FORTUNE",
                             "DRAW FORTUNE THEN FORTUNE", "DRAW NONE",
                             "DRAW FORTUNE DISASTERS AT MOST 1",
                             "DRAW FORTUNE THEN CHARACTER IF FIRST IS TAX ELSE FORTUNE"]))
    lines += _land_share(state, player, fams, mine, lines, rng)
    lines += _war_orders(state, player, tables, rng)
    return "\n".join(lines) + "\n"


def _war_orders(state: dict[str, Any], player: str, tables: Tables,
                rng: random.Random) -> list[str]:
    """The war share's orders (FE 7.0-7.10, 10.2, 11.1): coalitions, truces, betrayals,
    targets, engines, withdrawals, sallies, lower ransoms, Crossbowmen hired into battle
    and lent."""
    p = state["players"][player]
    fams = p["families"]
    names = {k: v["name"] for k, v in state["players"].items()}
    others = sorted(k for k in names if k != player)
    lines: list[str] = []
    for city in sorted(state["cities"]):
        c = state["cities"][city]
        here = {f for f, u in c["troops"].items() if any(u.values())}
        if not here & set(fams) or not others:
            continue
        # The other player named: one with troops here if any (so that both lines of a
        # coalition or a truce sometimes match), else anyone.
        there = sorted({state["families"][f]["player"] for f in here} - {player})
        other = names[rng.choice(there or others)]
        if rng.random() < 0.5:
            lines.append(f"JOIN {other} AT {city}")
            if rng.random() < 0.3:
                lines.append(f"BETRAY AT {city} AFTER ROUND 1")
        if rng.random() < 0.1:
            lines.append(f"END BATTLE AT {city}")
        if rng.random() < 0.6:
            lines.append(f"TRUCE WITH {other} AT {city}"
                         + rng.choice(["", "", "", "", " CEDE", " TAKE"]))
        foes = [n for n in state["nobles"].values() if n["city"] == city
                and n["family"] not in fams and n["status"] == "free"]
        if foes and rng.random() < 0.3:
            lines.append(f"TARGET {foes[0]['name']} AT {city}")
        if "Passage" in p["hand"] and rng.random() < 0.3:
            near = rng.choice(tables.neighbours(city))
            lines.append(f"WITHDRAW FROM {city} WITH PASSAGE TO {near}")
        if c["besieged_by"] and c["holder"] in fams and rng.random() < 0.8:
            lines.append(f"SALLY {city}" + rng.choice(["", " BACK IF LOST 2"]))
        if c["holder"] in fams and rng.random() < 0.1:
            lines.append(f"PILLAGE {city} ENGINES")
        if p["slot"] and "Crossbow" in p["slot"] and rng.random() < 0.3:
            lines.append(f"HIRE {rng.randint(1, 2)} CROSSBOWMEN AT {city} IN BATTLE")
        if rng.random() < 0.2:      # matched when the other's LEND happens to agree
            lines.append(f"HIRE 1 CROSSBOWMEN FROM {other} FOR 1 AT {city}")
    if p["slot"] and "Crossbow" in p["slot"] and others and rng.random() < 0.5:
        lines.append(f"LEND 1 CROSSBOWMEN TO {names[rng.choice(others)]} FOR 1")
    if rng.random() < 0.1:
        lines.append(rng.choice(["DESTROY ENGINES IF TROOPS BELOW 2", "SPOILS DESTROY",
                                 "SPOILS TAKE", "DESTROY ENGINES IF TROOPS BELOW 0"]))
    for army in sorted(state["invaders"].values(), key=lambda a: a["key"]):
        if "Passage" in p["hand"] and rng.random() < 0.3:
            lines.append(f"HELP INVADERS AT {army['city']} WITH PASSAGE")
    for n in sorted(state["nobles"].values(), key=lambda n: n["key"]):
        if n["status"] != "captive":
            continue
        if n["family"] in fams and rng.random() < 0.5:
            lines.append(f"RANSOM {n['name']} OFFER {rng.randint(0, 4)}")
        captor = state["nobles"].get(n["captor"] or "")
        if captor and captor["family"] in fams and rng.random() < 0.5:
            lines.append(f"ACCEPT RANSOM FOR {n['name']} AT LEAST {rng.randint(1, 5)}")
    return lines


def _land_share(state: dict[str, Any], player: str, fams: list[str], mine: list[Any],
                lines: list[str], rng: random.Random) -> list[str]:
    """The land share's orders (FE 5.0, 5.2, 10.2, 11.2, 12.0): some moves turned into
    surprise Cavalcades or given a Passage or Burgher branch, leave to enter, Relics set
    down and taken up."""
    for i, line in enumerate(lines):
        if not line.startswith("MOVE ") or "IF DENIED" in line:
            continue
        head = line.split(":", 1)[0]
        if ("WITH" not in head or head.count(" KNIGHT") == head.count(",") + 1) \
                and rng.random() < 0.3:
            lines[i] = "CAVALCADE" + line[4:]
        elif rng.random() < 0.3:
            lines[i] = line + rng.choice([" IF DENIED PASSAGE", " IF DENIED BURGHER"])
    out: list[str] = []
    others = [k for k in state["players"] if k != player]
    if others and rng.random() < 0.2:
        who = rng.choice([state["players"][rng.choice(others)]["name"], "ANYONE"])
        out.append(f"ALLOW {who} TO ENTER")
    for noble in mine:
        city = state["cities"][noble["city"]]
        if noble["relics"] and rng.random() < 0.3:
            out.append(f"LEAVE RELIC {noble['relics'][0]} BY {noble['name']}")
        elif city["relic"] and city["relic_up"] and rng.random() < 0.5:
            out.append(f"TAKE RELIC {city['relic']} BY {noble['name']}")
    return out


ANY_TIME = ("JUSTICE", "PASSAGE FREE", "AMBUSH", "REBELLION", "PLAY GOOD WEATHER", "MATA",
            "CHASUBLE", "SHINBONE", "GIVE", "PLAY FRENCH", "PLAY FLEMISH", "PLAY BURGHER")
WINDOWS = ("HEAR-YE", "ELECTION", "PARLIAMENT", "DISASTERS", "INCOME", "PURCHASE", "MOVE",
           "INVADERS", "BATTLES", "PILLAGE", "END", "W14")


def _cards_share(state: dict[str, Any], player: str, tables: Tables, rng: random.Random,
                 lines: list[str]) -> list[str]:
    """The cards share's orders (issue 17): window lines, reactions, retainer deals, the
    Abbess's relinquishing and rebuilding, the Skull for others."""
    p = state["players"][player]
    fams = p["families"]
    mine = [n for n in state["nobles"].values() if n["family"] in fams and n["status"] != "dead"]
    living = sorted(n["name"] for n in state["nobles"].values() if n["status"] != "dead")
    others = [k for k in state["players"] if k != player]
    if rng.random() < 0.3:
        window = rng.choice(WINDOWS)
        lines = [f"AT {window} {line}" if line.startswith(ANY_TIME) else line for line in lines]
    if "Justice" in p["hand"] and living and rng.random() < 0.3:
        who = rng.choice(living)
        lines.append(f"AT {rng.choice(['END', 'PILLAGE', 'ELECTION'])} IF {who} IS HERETIC "
                     f"PLAY JUSTICE {who}")
    if "Passage" in p["hand"] and mine and rng.random() < 0.3:
        who = rng.choice(mine)["name"]
        lines.append(f"AT {rng.choice(['DISCARD', 'PURCHASE', 'END'])} IF {who} IS CAPTIVE "
                     f"PLAY PASSAGE FREE {who}")
    if "Good Weather" in p["hand"] and rng.random() < 0.3:
        region = rng.choice(tables.regions).name
        lines.append(f"AT MOVE IF STORMS ON {region} PLAY GOOD WEATHER ON {region}")
    if "Ambush" in p["hand"] and mine and living and rng.random() < 0.3:
        me, who = rng.choice(mine), rng.choice(living)
        lines.append(f"AT BATTLES IF {who} AT {me['city']} PLAY AMBUSH {who} BY {me['name']}")
    if others and p["cash"] and mine and rng.random() < 0.1:
        lines.append(f"AT END IF {mine[0]['name']} IS LORD OF {rng.choice(tables.regions).name}"
                     f" PLAY GIVE 1 SHILLINGS TO {state['players'][rng.choice(others)]['name']}")
    for noble in mine:
        if noble["retainer"] and living and rng.random() < 0.1:
            lines.append(f"RETAINER {noble['retainer']} FROM {noble['name']} TO "
                         f"{rng.choice(living)} FOR {rng.randint(0, 2)}")
        for abbey in noble["abbess"]:
            if rng.random() < 0.1:
                lines.append(f"RELINQUISH {noble['name']}")
            held = sorted(c for c, v in state["cities"].items() if not v["building"])
            if held and rng.random() < 0.3:
                lines.append(f"REBUILD ABBEY {abbey.removesuffix(' (Royal)')} AT "
                             f"{rng.choice(held)}")
        if noble["clergy"]:
            abbesses = [n["name"] for n in state["nobles"].values() if n["abbess"]]
            if abbesses and rng.random() < 0.5:
                lines.append(f"PERMIT RELINQUISH {rng.choice(abbesses)}")
    king = state["sovereign"]
    women = [n["name"] for n in state["nobles"].values()
             if n["status"] != "dead" and n["sex"] == "f" and not n["spouse"]]
    if king and state["nobles"][king]["family"] in fams and women and rng.random() < 0.3:
        lines.append(f"APPOINT ABBESS {rng.choice(women)}")
    if king and state["nobles"][king]["family"] in fams and rng.random() < 0.2:
        lines.append(f"ROYAL MOVE {state['nobles'][king]['name']} TO ROYAL ABBEY")
    if living and rng.random() < 0.05:
        lines.append(rng.choice(["SKULL ANY", f"SKULL FOR {rng.choice(living)}"]))
    if "Passage" in p["hand"]:
        for a in sorted(state["invaders"].values(), key=lambda a: a["key"]):
            if rng.random() < 0.5:
                lines.append(f"AID INVADERS AT {a['city']} WITH PASSAGE")
    return lines
