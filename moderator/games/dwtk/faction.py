"""Status, faction and the PP limit: the `Court` methods of DWTK 16.3, 18.9-18.10,
33.2.3 (Status), 34.3 and 35.3 (IP and PP never negative) and 35.4-35.6 (the PP limit).

`FactionRules` is a mixin of `court.Court`; it reads the court's dicts and calls its
`emit`, `discard` and lookups.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from moderator.games.dwtk.events import EventId
from moderator.games.dwtk.state import Character, Phase, Player, Royal, Situation
from moderator.games.dwtk.tables import Tables


class FactionRules:
    """Status Ratings and the faction's PP limit (mixed into `Court`)."""

    t: Tables
    phase: Phase
    players: dict[str, Player]
    characters: dict[int, Character]
    royals: dict[str, Royal]
    offices: dict[str, str | None]
    discards: list[str]
    removed: list[str]
    loyalty_pool: list[int]
    events: list[Any]
    crisis: bool
    seats: tuple[str, ...]
    orders: Mapping[str, Any]  # this adjudication's TurnOrders (LOSE FIRST, 35.5)
    _loads_fit: tuple[Any, ...] | None = None  # `_load_inputs` when every faction last fit
    _told_later: list[str] | None = None  # players whose PP limit waits (`cause_first`)

    if TYPE_CHECKING:  # provided by Court
        def char(self, cid: int | str) -> Character: ...
        def set_char(self, cid: int | str, **changes: Any) -> Character: ...
        def set_player(self, key: str, **changes: Any) -> Player: ...
        def set_royal(self, key: str, **changes: Any) -> Royal: ...
        def monarch(self) -> str | None: ...
        def office_of(self, holder: str) -> str | None: ...
        def pc_of(self, player: str) -> Character | None: ...
        def faction(self, player: str) -> list[Character]: ...
        def farcs(self, player: str) -> list[Royal]: ...
        def discard(self, card: str) -> None: ...
        def emit(self, event_id: EventId, args: Any = None, actor: str | None = None,
                 public: bool = True) -> None: ...
        def in_order(self) -> Iterator[str]: ...

    # -- Status (2.1.2, 13.4.1, 13.4.3, 16.3, 18.9, 18.10, 33.2.3) ------------------

    def base_status(self, c: Character) -> int:
        if c.fixed_status is not None:
            return c.fixed_status
        return self.t.noble(c.id).status + c.titles

    def status(self, cid: int | str) -> int:
        """A noble's Status Rating for all game purposes (16.3)."""
        c = self.char(cid)
        return self._status(c, self.office_of(c.key))

    def _status(self, c: Character, office: str | None) -> int:
        """`status` of ``c``, who holds ``office`` (`office_of`, given: the loads below
        look the offices up once for the whole court)."""
        own = self.base_status(c)
        if c.spouse is not None:
            partner = self._partner_base(c.spouse)
            if partner is not None and self._spouse_benefits(c.spouse):
                own = max(own, partner)
        if c.counselor is not None:
            own += 2  # 13.4.3
        if office is not None:
            own += self.t.office(office).status
            if self.crisis:
                own //= 2  # 33.2.3
        return own

    def _partner_base(self, spouse: str) -> int | None:
        if spouse.isdigit():
            return self.base_status(self.char(spouse))
        royal = self.royals.get(spouse)
        if royal is None or not royal.alive:
            return None
        return 8 if royal.owner is not None else self.t.royal(spouse).status  # 18.10

    def _spouse_benefits(self, spouse: str) -> bool:
        """18.9: no benefit while the partner is banished, imprisoned or a wrongdoer."""
        if not spouse.isdigit():
            return True
        partner = self.char(spouse)
        return partner.situation not in (Situation.BANISHED, Situation.IMPRISONED,
                                         Situation.AWAITING_EXECUTION) \
            and not partner.wrongdoer

    def at_sea(self, cid: int | str) -> bool:
        """13.4.17.1: the captain of a privateer at sea takes part in no other action and
        cannot be assassinated (privateering.py keeps the voyage on `Player.voyage`)."""
        return any(p.voyage is not None and p.voyage.captain == int(cid)
                   for p in self.players.values())

    def royal_status(self, key: str) -> int:
        status = self.t.royal(key).status
        if self.crisis and self.royals[key].owner is None:
            status //= 2  # 33.2.3: all NRCs
        return status

    def faction_load(self, player: str) -> int:
        """DWTK 35.4/35.6/36.10.6: Status of FACs and FARCs that count against PP."""
        return self._loads((player,))[player]

    def _loads(self, players: Iterable[str]) -> dict[str, int]:
        """`faction_load` of these players, in one pass over the court (plain loops: this
        runs for every player after every phase): his FACs and FARCs but his PC's spouse
        (35.6) and a FARC Monarch (36.10.6)."""
        spouse: dict[str, str | None] = {}
        for key in players:
            pc = self.pc_of(key)
            spouse[key] = pc.spouse if pc is not None else None
        held: dict[str, str] = {}  # holder -> his office, as `office_of` finds it
        for office, holder in self.offices.items():
            if holder is not None and office != "monarch":
                held.setdefault(holder, office)
        loads = dict.fromkeys(spouse, 0)
        for c in self.characters.values():
            owner = c.owner
            if owner in loads and not c.pc and c.alive and c.key != spouse[owner]:
                loads[owner] += self._status(c, held.get(c.key))
        monarch = self.monarch()
        for r in self.royals.values():
            owner = r.owner
            if owner in loads and r.alive and r.key != spouse[owner] and monarch != r.key:
                loads[owner] += self.royal_status(r.key)
        return loads

    def _load_inputs(self) -> tuple[Any, ...]:
        """Everything `faction_load` reads (Status 16.3, the PP limit 35.4): equal inputs
        give equal loads.  The values are frozen, so unchanged ones compare by identity
        (cheap).  Of a player only his PC (whose spouse does not count, 35.6) and his PP
        matter: his IP, hand and counters change all the time and move no load.  Keep this
        in step with `status` and `faction_load`."""
        return (list(self.characters.values()), list(self.royals.values()),
                [(key, p.pc, p.pp) for key, p in self.players.items()], dict(self.offices),
                self.crisis)

    # -- IP, PP and the PP limit (34, 35) -------------------------------------------

    def gain(self, player: str, *, ip: int = 0, pp: int = 0) -> tuple[int, int]:
        """Add (or take) IP and PP; a debt beyond what he has is forgiven (34.3, 35.3).

        Returns the amounts actually changed.  A loss of PP may force him to lose FACs
        (35.5): see `enforce_limit`.
        """
        p = self.players[player]
        new_ip, new_pp = max(0, p.ip + ip), max(0, p.pp + pp)
        self.set_player(player, ip=new_ip, pp=new_pp)
        if new_pp < p.pp:
            if self._told_later is not None:
                self._told_later.append(player)
            else:
                self.enforce_limit(player)
        return new_ip - p.ip, new_pp - p.pp

    @contextmanager
    def cause_first(self) -> Iterator[None]:
        """Losses the PP limit forces (35.5) are applied after the block, so the event
        that cost the PP (a scandal, a Court Ball, a counsel) is told before them."""
        outer = self._told_later
        self._told_later = [] if outer is None else outer
        try:
            yield
        finally:
            if outer is None:
                waiting, self._told_later = self._told_later, None
                for player in dict.fromkeys(waiting):
                    self.enforce_limit(player)

    def fits(self, player: str, change: Callable[[], None]) -> bool:
        """Would the faction still fit the PP total after ``change``? (35.4)

        The change is tried on the court and undone; the caller then makes it for real.
        """
        saved = (dict(self.characters), dict(self.offices), dict(self.players),
                 list(self.discards), list(self.removed), len(self.events))
        change()
        ok = self.faction_load(player) <= self.players[player].pp
        (self.characters, self.offices, self.players, self.discards, self.removed,
         events) = saved
        del self.events[events:]
        return ok

    def enforce_all(self) -> None:
        """35.5 for every player (after Status changed without anyone choosing it)."""
        if self.phase is Phase.MUSTER:
            return
        # Speed, no rule: when nothing a load depends on changed since the last call left
        # every faction within its PP, it would find nothing to do again.
        inputs = self._load_inputs()
        if inputs == self._loads_fit:
            return
        # A loss can raise another player's load (a FARC lost stops giving her FAC husband
        # Status 8, 18.10), also one seated earlier: again until a pass finds no one over.
        while True:
            loads = self._loads(self.seats)
            over = [p for p in self.seats if loads[p] > self.players[p].pp]
            if not over:
                break
            before = self._load_inputs()
            for player in over:
                self.enforce_limit(player)  # 35.5
            if self._load_inputs() == before:
                return  # no one could lose anyone more: nothing to record as fitting
        self._loads_fit = self._load_inputs()

    # -- 35.5 whom he loses: the standing LOSE FIRST order (refinements) -------------

    def lose_first(self, player: str) -> tuple[str, ...]:
        """35.5 "he may choose": this turn's LOSE FIRST line if he sent one (it stands
        from now on, `standing_players`), else the one standing."""
        sent = getattr(self.orders.get(player), "lose_first", None)
        return self.players[player].lose_first if sent is None else sent

    def standing_players(self) -> dict[str, Player]:
        """The players with this turn's LOSE FIRST lines stored (kept until replaced)."""
        out = dict(self.players)
        for key, p in out.items():
            sent = getattr(self.orders.get(key), "lose_first", None)
            if sent is not None and sent != p.lose_first:
                out[key] = replace(p, lose_first=sent)
        return out

    def enforce_limit(self, player: str) -> None:
        """DWTK 35.5: lose FACs/FARCs until the faction fits the PP total again; never
        one more (35.5.4: none is given up while the PP suffice).

        He chooses whom (35.5): the first still in his faction of his LOSE FIRST list;
        without one, the lowest-Status member goes (ties: FACs before FARCs, lower id
        first; PROPOSED default).
        """
        while self.faction_load(player) > self.players[player].pp:
            key = self._next_to_lose(player)
            if key is None:
                return
            self.lose_member(player, key, reason="pp_limit")

    def _next_to_lose(self, player: str) -> str | None:
        """Only members who count against the PP total (35.6, 36.10.6) can be lost."""
        pc = self.pc_of(player)
        spouse = pc.spouse if pc is not None else None
        candidates: list[tuple[int, int, str]] = [
            (self.status(c.id), 0, c.key) for c in self.faction(player) if c.key != spouse]
        candidates += [(self.royal_status(r.key), 1, r.key) for r in self.farcs(player)
                       if r.key != spouse and self.monarch() != r.key]
        if not candidates:
            return None
        keys = {key for _, _, key in candidates}
        chosen = next((k for k in self.lose_first(player) if k in keys), None)
        if chosen is not None:
            return chosen
        # 35.5.4: no more than needed — the lowest Status whose loss alone brings him within
        # the limit; if none does, the highest, and so on (PROPOSED default)
        excess = self.faction_load(player) - self.players[player].pp
        enough = [c for c in candidates if c[0] >= excess]
        return (min(enough) if enough else max(candidates))[2]

    def lose_member(self, player: str, key: str, reason: str) -> None:
        """A FAC becomes an NC (35.5.1) or a FARC an NRC (35.5.2); a married FAC lost
        is taken to die, and the spouse may remarry (35.5.3, 18.6)."""
        if key.isdigit() and self.char(key).spouse is not None and self.char(key).alive:
            from moderator.games.dwtk.death import kill_character  # death imports court

            kill_character(self, int(key), reason)  # type: ignore[arg-type]
            return
        if key.isdigit():
            from moderator.games.dwtk.shared import release_cards  # shared imports court

            c = self.char(key)
            release_cards(self, c.id, reason)  # type: ignore[arg-type]  # 14.2.2, 14.2.4
            self.set_char(key, owner=None)
            if c.alive and c.id not in self.loyalty_pool:
                self.loyalty_pool.append(c.id)
        else:
            royal = self.royals[key]
            if royal.card is not None:
                self.discard(royal.card)
            self.set_royal(key, owner=None, card=None)
        self.emit(EventId.FACTION_LOST, {"player": player, "member": key, "reason": reason},
                  actor=player)
        if key.isdigit() and self.char(key).situation is Situation.HIDING:
            from moderator.games.dwtk.hiding import forced_out  # hiding imports court

            forced_out(self, int(key))  # type: ignore[arg-type]  # 24.7: an NC cannot hide
