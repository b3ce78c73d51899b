"""Standing reactions at work: stored from the orders, fired in player order (DWTK 14.1).

`install` runs first in every adjudication: ``WITHDRAW REACTION n`` lines drop stored
reactions, new ``IF ... THEN ...`` lines are stored with the next number.  A rule that
lets players react calls `fire` (matching reactions, player order, then each player's
reactions in number order), or one of its helpers: `play_cards` plays the matching
Event cards from the hands and sums their modifiers; `choice` finds the first response
of a kind from the players entitled to it.  A reaction whose card is no longer in hand
simply does nothing; it stays stored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator
from dataclasses import replace

from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.orders.names import PC, Names
from moderator.games.dwtk.orders.reaction import (
    ANYONE,
    CARD_USES,
    ME,
    MINE,
    OPPONENT,
    Act,
    Reaction,
    Trigger,
    format_reaction,
)
from moderator.games.dwtk.state.court import Court


def _same_key(r: Reaction) -> tuple[object, ...]:
    """Everything but the number: two reactions with the same key are the same order."""
    return (r.trigger, r.act, r.actor, r.target, r.card, r.count, r.sign, r.choice)


def install(court: Court) -> None:
    """Withdrawals first, then the new reactions, numbered on from the last (14.1).

    A reaction sent again while the same one stands is not stored twice.
    """
    names = Names.of(court.t, {k: p.name for k, p in court.players.items()})
    for key in court.seats:
        orders = court.orders.get(key)
        withdraw, sent = getattr(orders, "withdraw", ()), getattr(orders, "reactions", ())
        if not withdraw and not sent:
            continue  # his reactions stand as they are (speed: most turns send none)
        p = court.players[key]
        kept = list(p.reactions)
        for n in withdraw:
            found = any(r.n == n for r in kept)
            kept = [r for r in kept if r.n != n]
            court.emit(EventId.REACTION_WITHDRAWN, {"n": n, "found": found}, actor=key,
                       public=False)
        seq = p.reaction_seq
        standing = {_same_key(k) for k in kept}
        for r in sent:
            key_r = _same_key(r)
            if key_r in standing:  # sent again: still the one standing order
                continue
            seq += 1
            stored = replace(r, n=seq)
            kept.append(stored)
            standing.add(key_r)
            court.emit(EventId.REACTION_STORED, {"n": seq,
                                                 "text": format_reaction(stored, names)},
                       actor=key, public=False)
        court.set_player(key, reactions=tuple(kept), reaction_seq=seq)


def _actor_matches(r: Reaction, player: str, actor: str | None) -> bool:
    if r.actor == ANYONE:
        return True
    if r.actor == OPPONENT:
        return actor is not None and actor != player
    if r.actor == ME:
        return actor == player
    return actor == r.actor


def _target_matches(court: Court, r: Reaction, player: str, target: str) -> bool:
    if r.target == ANYONE:
        return True
    if r.target == PC:
        return str(court.players[player].pc) == target
    if r.target == MINE:
        return court.controller(target) == player
    return r.target == target


def fire(court: Court, trigger: Trigger, target: str,
         actor: str | None = None) -> Iterator[tuple[str, Reaction]]:
    """Every stored reaction to this trigger on ``target`` by ``actor`` (None: no player,
    e.g. the court at a trial), in player order (14.1), then in number order."""
    for player in court.in_order():
        for r in sorted(court.players[player].reactions, key=lambda x: x.n):
            if r.trigger is trigger and _actor_matches(r, player, actor) and \
                    _target_matches(court, r, player, target):
                yield player, r


def play_cards(court: Court, trigger: Trigger, target: str, actor: str | None = None,
               sign_of: Callable[[str], int | None] | None = None,
               once_each: set[str] | None = None,
               only: Collection[str] | None = None) -> tuple[int, Counter[str]]:
    """Play the cards the matching PLAY reactions ask for; (total modifier, cards played).

    ``sign_of(player)`` overrides the sign (None: this player may not play), for rules
    that fix who plays and in which direction (22).  A card's ``most`` caps the number
    of that card on one roll (13.4.4, 27.3).  ``once_each`` (shared between calls) lets
    each player play one card at most (19.9: one per player on both duelling rolls).
    ``only`` limits the cards that may be played here (13.4.8: Personal Guards against
    a non-Office Holder, Palace Guards against an Office Holder or RC).
    """
    total, played = 0, Counter[str]()
    for player, r in fire(court, trigger, target, actor):
        if r.act is not Act.PLAY or r.card is None:
            continue
        if once_each is not None and player in once_each:
            continue
        if only is not None and r.card not in only:
            continue
        use = CARD_USES[trigger][r.card]
        sign = r.sign or 1
        if sign_of is not None:
            forced = sign_of(player)
            if forced is None:
                continue
            sign = forced
        for _ in range(r.count):
            if use.most is not None and played[r.card] >= use.most:
                break
            cards = court.cards_of(player, r.card)
            if not cards:
                break
            court.take_from_hand(player, cards[0])
            court.discard(cards[0])  # 14.2.3
            amount = court.t.justice_rules[use.amount] * sign if use.amount else 0
            played[r.card] += 1
            total += amount
            if once_each is not None:
                once_each.add(player)
            court.emit(EventId.REACTION_CARD, {"player": player, "card": r.card,
                                               "trigger": trigger.value, "target": target,
                                               "amount": amount, "rule": use.rule},
                       actor=player)
            if once_each is not None:
                break
    return total, played


def choice(court: Court, trigger: Trigger, target: str, act: Act,
           players: Collection[str], actor: str | None = None) -> tuple[str, Reaction] | None:
    """The first ``act`` response (player order) of a player entitled to it."""
    return next(((p, r) for p, r in fire(court, trigger, target, actor)
                 if r.act is act and p in players), None)
