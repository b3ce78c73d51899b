"""Phase 1: marriages, elections and Parliament (FE 9.0-9.3)."""

from __future__ import annotations

from moderator.games.fief.cards import windows
from moderator.games.fief.events import EventId
from moderator.games.fief.orders.values import (
    Convene,
    Decoy,
    Marry,
    ParliamentVote,
    TurnOrders,
    Vote,
)
from moderator.games.fief.realm import Realm
from moderator.games.fief.state import NO_MARRIAGE_AT_THREE, Noble


def _orders(realm: Realm, player: str) -> TurnOrders:
    return realm.orders.get(player, TurnOrders())


def marriage_phase(realm: Realm) -> None:
    """FE 9.0: a marriage is a matching pair of MARRY orders from two players; a mismatch
    does nothing and both are told privately (fief-email.md §4). Not in a 3-player game
    (13.8); in the 2-player game only between one player's two families (13.7)."""
    s = realm.s
    offers = {p: _orders(realm, p).of(Marry) for p in s.player_order()}
    wed: set[frozenset[str]] = set()
    for player in s.player_order():
        for offer in offers[player]:
            mine = s.nobles.get(offer.noble.lower())
            theirs = s.nobles.get(offer.to.lower())
            if frozenset((offer.noble.lower(), offer.to.lower())) in wed:
                continue   # the matching half of a wedding made just now: not "married"
            why = _why_not(realm, player, mine, theirs)
            if why:
                realm.emit(EventId.MARRIAGE_MISMATCH, {"noble": offer.noble, "to": offer.to,
                                                       "reason": why}, actor=player, public=False)
                continue
            assert mine is not None and theirs is not None
            other = realm.account(theirs.family)
            matched = other == player or any(
                o.noble.lower() == theirs.key and o.to.lower() == mine.key for o in offers[other])
            if not matched:
                for p in dict.fromkeys((player, other)):
                    realm.emit(EventId.MARRIAGE_MISMATCH,
                               {"noble": mine.key, "to": theirs.key,
                                "reason": "no matching MARRY order from the other family"},
                               actor=p, public=False)
                continue
            mine.spouse, theirs.spouse = theirs.key, mine.key
            wed.add(frozenset((mine.key, theirs.key)))
            s.families[mine.family].ring = mine.key
            s.families[theirs.family].ring = theirs.key
            realm.emit(EventId.MARRIAGE, {"a": mine.key, "b": theirs.key})
            king = s.sovereign
            if king in (mine.key, theirs.key):
                realm.royal_spouse(theirs.key if king == mine.key else mine.key)


def _why_not(realm: Realm, player: str, mine: Noble | None, theirs: Noble | None) -> str | None:
    s = realm.s
    if realm.player_count() == 3:
        return NO_MARRIAGE_AT_THREE
    if mine is None or not mine.alive or mine.family not in s.players[player].families:
        return "not a living noble of your family"
    if theirs is None or not theirs.alive:
        return "no such living noble"
    if mine.spouse or theirs.spouse:
        return "already married"
    if mine.sex == theirs.sex:
        return "a marriage unites a nobleman and a noblewoman (FE 9.0)"
    if mine.is_clergy or theirs.is_clergy:
        return "clergy and abbesses cannot marry (FE 9.0, 2.13, 2.14)"
    same_player = realm.account(theirs.family) == player
    if realm.player_count() == 2 and (not same_player or mine.family == theirs.family):
        return "in the two-player game only your two families marry (FE 13.7)"
    if realm.player_count() > 2 and same_player:
        return "a marriage allies two players (FE 9.0)"
    if any(s.families[f].ring for f in (mine.family, theirs.family)):
        return "one marriage, one alliance at a time (FE 9.0)"
    return None


def votes_of(realm: Realm, player: str) -> int:
    """FE 9.1: 1 per free Lord or Bishop, 2 per Archbishop, a noble counted once; the
    captive and the besieged add nothing ("non-captive/besieged")."""
    total = 0
    for noble in realm.s.living():
        if (noble.family not in realm.s.players[player].families or not noble.free
                or realm.besieged(noble)):
            continue
        if noble.clergy and realm.t.district(noble.clergy).rank == "archbishop":
            total += 2
        elif noble.is_lord or noble.clergy:
            total += 1
    return total


def drop_unfit(realm: Realm) -> None:
    """FE 9.1, fief-email.md A44: eligibility is checked when the election runs; a
    candidate who may not stand is dropped with his standing `CANDIDATE` lines, and each
    player who named him is told why on his sheet."""
    s = realm.s
    for key in list(s.candidates):
        name = s.nobles[key].name if key in s.nobles else key.title()
        why = s.cannot_stand(name)
        if why is None:
            continue
        namers = [p for p in s.player_order()
                  if any(d["kind"] == "candidate" and str(d.get("lord", "")).lower() == key
                         for d in s.players[p].standing)]
        if not namers and key in s.nobles:
            namers = [s.player_of(s.nobles[key].family)]
        for player in namers:
            realm.refuse(player, f"CANDIDATE {name}",
                         f"{why}; a candidate is a Lord, not of the clergy, neither captive "
                         f"nor besieged (FE 9.1): the candidacy is withdrawn")
        realm.drop_candidacy(key)


def election_phase(realm: Realm) -> None:
    """FE 9.1: with no Sovereign and 3 titles in play, one of them a Bishop or
    Archbishop, the standing candidates are voted on; a simple majority elects."""
    s = realm.s
    drop_unfit(realm)
    titled = sum(len(n.titles) + (1 if n.clergy else 0) + len(n.abbess) for n in s.living())
    why = ("England has a Sovereign" if s.sovereign is not None
           else "no candidate stands" if not s.candidates
           else "an election needs three Titles in play, one of them a Bishop or Archbishop"
           if titled < 3 or not any(n.clergy for n in s.living()) else None)
    if why is not None:
        _unused_votes(realm, f"no election this round: {why} (FE 9.1)")
        return
    realm.emit(EventId.CANDIDATES, {"candidates": list(s.candidates)})
    # W2 (fief-email.md §3.2): a candidate may be struck before the tally.
    windows.open_window(realm, "election")
    drop_unfit(realm)
    if s.sovereign is not None or not s.candidates:
        _unused_votes(realm, "no candidate was left at the tally (FE 9.1)")
        return
    tally, markers = _count(realm)
    best = max(tally.values())
    top = [c for c, v in tally.items() if v == best]
    if best == 0 or len(top) > 1:
        realm.emit(EventId.NOT_ELECTED, {"tally": tally, "markers": markers})
        return
    king = s.nobles[top[0]]
    realm.crown(king.key)
    realm.emit(EventId.ELECTED, {"noble": king.key, "tally": tally, "markers": markers,
                                 "title": "King" if king.sex == "m" else "Sovereign Queen"})


def _count(realm: Realm) -> tuple[dict[str, int], dict[str, list[str]]]:
    """FE 9.1: the markers flipped and tallied.  A FOR marker gives the first standing
    candidate of its list all the player's votes; a DECOY counts nothing.  The gazette
    shows whose markers lay on whom, not which were decoys (PROPOSED, docs/fief-by-
    email.md: by mail no one sees them face down, so the decoy misleads afterwards); the
    decoy's own player is told on his sheet."""
    s = realm.s
    tally: dict[str, int] = {c: 0 for c in s.candidates}
    markers: dict[str, list[str]] = {c: [] for c in s.candidates}
    for player in s.player_order():
        choice = None
        for vote in _orders(realm, player).of(Vote)[-1:]:
            choice = next((c.lower() for c in vote.candidates if c.lower() in tally), None)
            if choice:
                tally[choice] += votes_of(realm, player)
                markers[choice].append(player)
            else:
                realm.refuse(player, "VOTE " + ", ".join(vote.candidates),
                             "none of them is a standing candidate (FE 9.1)")
        for decoy in _orders(realm, player).of(Decoy)[-1:]:
            key = decoy.candidate.lower()
            if key not in markers:
                realm.refuse(player, f"DECOY {decoy.candidate}",
                             "not a standing candidate: the marker stays with you (FE 9.1)")
                continue
            markers[key].append(player)
            realm.emit(EventId.DECOY_PLACED, {"decoy": key, "vote": choice,
                                              "votes": votes_of(realm, player) if choice else 0},
                       actor=player, public=False)
    return tally, markers


def _unused_votes(realm: Realm, why: str) -> None:
    """Found playing by mail: a VOTE written in a round with no election did nothing and
    the voter's sheet said nothing."""
    for player in realm.s.player_order():
        for vote in _orders(realm, player).of(Vote)[-1:]:
            realm.refuse(player, "VOTE " + ", ".join(vote.candidates), why)
        for decoy in _orders(realm, player).of(Decoy)[-1:]:
            realm.refuse(player, f"DECOY {decoy.candidate}", why)


ROYAL_TAX = 12


def _not_sovereign(realm: Realm, crown: str | None) -> None:
    """FE 9.2: a CONVENE from anyone but the sitting Sovereign's player is refused (found
    playing by mail: Cid's, holding no crown, did nothing and said nothing)."""
    for player in realm.s.player_order():
        if player != crown and _orders(realm, player).of(Convene):
            realm.refuse(player, "CONVENE PARLIAMENT", "only a free King or Sovereign Queen, "
                         "neither captive nor besieged, convenes Parliament (FE 9.2)")


def parliament_phase(realm: Realm) -> None:
    """FE 9.2-9.3: a free Sovereign convenes Parliament; every player's votes (as in 9.1)
    go FOR or AGAINST; more than half of all votes passes the 12 Shilling Royal Tax, shared
    as the Sovereign wrote (the rest to himself), and the Parliament card turns to its
    Rebellion side for the round.  Without an order a player votes AGAINST, the convener
    FOR (PROPOSED); a Burgher adds its 3 or 5 votes for a Treasure (`WITH BURGHER`, 11.2,
    Ex 9-2)."""
    s = realm.s
    king = s.nobles.get(s.sovereign) if s.sovereign else None
    sits = king is not None and king.free and not realm.besieged(king)
    crown = realm.account(king.family) if king is not None and sits else None
    _not_sovereign(realm, crown)
    if king is None or crown is None:
        return
    calls = _orders(realm, crown).of(Convene)
    if not calls:
        return
    # W3 (fief-email.md §3.2): cards after the convening; a Sovereign taken or slain in it
    # no longer sits (FE 9.2: "if they are not Captive or besieged").
    windows.open_window(realm, "parliament")
    if not king.free or realm.besieged(king):
        return
    votes: dict[str, str] = {}
    for player in s.player_order():
        written = _orders(realm, player).of(ParliamentVote)
        votes[player] = written[-1].vote if written else ("for" if player == crown else "against")
    strength = {p: votes_of(realm, p) for p in s.player_order()}
    for player in s.player_order():
        # FE 11.2, 11.3: a Burgher adds 3 or 5 votes for a Treasure.
        written = _orders(realm, player).of(ParliamentVote)
        p = s.players[player]
        if written and written[-1].burgher and p.slot and p.slot.startswith("Burgher") \
                and p.treasures > 0:
            p.treasures -= 1
            strength[player] += 5 if "5" in p.slot else 3
    total = sum(strength.values())
    ayes = sum(strength[p] for p, v in votes.items() if v == "for")
    passed = ayes * 2 > total
    shares: dict[str, int] = {}
    if passed:
        left = ROYAL_TAX
        for player, n in calls[-1].shares:
            give = min(n, left)
            if player in s.players and give:
                shares[player] = shares.get(player, 0) + give
                left -= give
        shares[crown] = shares.get(crown, 0) + left
        for player, n in shares.items():
            s.players[player].cash += n
        s.parliament_rebellion = True
    # fief-email.md §7.1: the gazette shows each family's revealed marker and its strength.
    realm.emit(EventId.PARLIAMENT, {"sovereign": king.key, "for": ayes, "total": total,
                                    "passed": passed,
                                    "votes": [[p, votes[p], strength[p]]
                                              for p in s.player_order()]})
    for player, n in sorted(shares.items()):
        # FE 9.2: the Royal Tax is distributed secretly.
        realm.emit(EventId.PARLIAMENT, {"sovereign": king.key, "share": n, "passed": True},
                   actor=player, public=False)
