"""End of the round and victory (FE 8.0-8.5, 13.7, 13.8)."""

from __future__ import annotations

from moderator.games.fief import cards, mercenaries, siege
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import GarterPolicy
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Phase

RANK = {"Duchy": 3, "County": 2, "Barony": 1}


def end_round(realm: Realm) -> None:
    """FE 8.0: cards on the map are discarded (Round 1's dormant disasters stay, FE 2.4),
    Treasures return, the First Player marker passes; from Round 5 victory is checked."""
    s = realm.s
    for sea in s.seas.values():
        s.fortune_discard.extend(sea)
        sea.clear()
    mercenaries.loans_home(realm)       # FE 11.1: lent Crossbowmen first, to their lender
    cards.crossbows_home(realm)
    siege.check(realm)
    award_garter(realm)
    s.taxes = []
    s.chasuble_moved = []
    s.spent = []                          # FE 8.0: Spent Retainers turn face up
    _no_battle(realm)
    s.parliament_rebellion = False      # FE 8.0: the Parliament card back to its face
    for p in s.players.values():
        p.treasures = 2
    vps = {p: realm.vp(p) for p in s.seats}
    realm.emit(EventId.VICTORY_POINTS, {"round": s.round, "vp": vps})
    s.history.append({"round": s.round, "vp": vps})
    winners, how = check_victory(realm, vps)
    if winners:
        s.winners = winners
        s.phase = Phase.OVER
        realm.emit(EventId.GAME_WON, {"winners": winners, "round": s.round, "vp": vps,
                                      "how": how})
        return
    s.first = (s.first + 1) % len(s.seats)


def _no_battle(realm: Realm) -> None:
    """FE 5.0: "If opposing Armies in a City did not Battle last Round, they no longer need
    permission to continue moving this Round": the pairs that shared a city all this
    round's Phase 7 without fighting there."""
    s = realm.s
    fought = {(b["city"], b["attacker"], b["defender"]) for b in realm.battles}
    pairs = []
    for city in realm.t.city_names:
        present = [f for f in s.family_order() if realm.present(city, f)]
        for i, a in enumerate(present):
            for b in present[i + 1:]:
                if (city, a, b) not in fought and (city, b, a) not in fought:
                    pairs.append([city, a, b])
    s.no_battle = pairs


def award_garter(realm: Realm) -> None:
    """FE 13.3: once a round the free Sovereign may induct a Lord who beat an invader army
    or sent one home; by his standing `GARTER FIRST`, the first eligible this round.  Four
    markers in all."""
    s = realm.s
    king = s.nobles.get(s.sovereign) if s.sovereign else None
    if king is None or not king.free or not realm.garter_eligible:
        return
    crown = realm.account(king.family)
    policy = [d for d in s.players[crown].standing if d.get("kind") == GarterPolicy.kind]
    if not policy or not policy[-1].get("award"):
        return
    if sum(1 for n in s.nobles.values() if n.garter) >= 4:
        return
    for key in realm.garter_eligible:
        lord = s.nobles[key]
        if lord.alive and lord.is_lord and not lord.garter:
            lord.garter = True
            realm.emit(EventId.GARTER, {"noble": lord.key, "sovereign": king.key})
            return


def _alliances(realm: Realm) -> list[tuple[str, ...]]:
    """Each player alone, or two players allied through marriage (FE 9.0, 8.3)."""
    s = realm.s
    groups: list[tuple[str, ...]] = []
    for p in s.seats:
        allies = sorted({realm.account(s.nobles[n.spouse].family) for n in s.living()
                         if n.spouse and realm.account(n.family) == p
                         and realm.account(s.nobles[n.spouse].family) != p})
        group = tuple(sorted({p, *allies}))
        if group not in groups:
            groups.append(group)
    return groups


def check_victory(realm: Realm, vps: dict[str, int]) -> tuple[list[str], str]:
    """The winners and how they won (FE 8.2, 8.3, 8.5), or ([], "")."""
    s, v = realm.s, realm.t.victory
    if s.round < v.first_round:
        return [], ""
    players = len(s.seats)
    if players == 2:
        # FE 13.7: 4 VP from Round 5, the player's two families allied through marriage.
        solo = [p for p in s.seats if vps[p] >= v.two_player_vp
                and any(s.nobles[n.spouse].family in s.players[p].families
                        for n in s.living() if n.spouse and n.family in s.players[p].families)]
    else:
        need = v.three_player_vp if players == 3 else v.solo_vp
        solo = [p for p in s.seats if vps[p] >= need
                and not any(len(g) > 1 and p in g for g in _alliances(realm))]
    if solo:
        # FE 8.3: a solo victory beats an alliance victory.
        return [max(solo, key=lambda p: (vps[p], _tiebreak(realm, (p,))))], "solo"
    pairs = [g for g in _alliances(realm) if len(g) == 2
             and sum(vps[p] for p in g) >= v.alliance_vp]
    if pairs and players == 4:
        pair = max(pairs, key=lambda g: (sum(vps[p] for p in g), _tiebreak(realm, g)))
        return list(pair), "alliance"
    if s.round >= v.last_round:
        groups = _alliances(realm)
        best = max(groups, key=lambda g: (sum(vps[p] for p in g), _tiebreak(realm, g)))
        tied = [g for g in groups if sum(vps[p] for p in g) == sum(vps[p] for p in best)]
        return list(best), "most VP" if len(tied) == 1 else "tie broken by title"
    return [], ""


def _tiebreak(realm: Realm, group: tuple[str, ...]) -> tuple[int, int, int, int, int]:
    """FE 8.5: any title with the Order of the Garter, then King or Sovereign Queen, then
    Duke, Count, Baron; then the later seat loses (PROPOSED, so the result is never open)."""
    s = realm.s
    fams = {f for p in group for f in s.players[p].families}
    nobles = [n for n in s.living() if n.family in fams]
    crown = 1 if s.sovereign and s.nobles[s.sovereign].family in fams else 0
    garter = 1 if any(n.garter for n in nobles) else 0
    ranks = sorted((RANK[realm.t.region(r).title] for n in nobles for r in n.titles), reverse=True)
    top = ranks[0] if ranks else 0
    return (garter, crown, top, len(ranks), -min(s.seats.index(p) for p in group))
