"""The sides of a battle: strength and losses (FE 7.3, 7.5, 7.0 Ally Attacks, 13.1, 6.4).

A side is a family's army in a city, with the armies of the families fighting with it
(a coalition, FE 7.0), or the invaders there.  Its first family leads: the member with the
most SP decides which troops take the hits and which noble takes the captives (FE 7.0).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from moderator.games.fief.realm import Realm
from moderator.games.fief.state import Noble

LOSS_ORDER = ("men_at_arms", "archer", "crossbow", "knight")


@dataclass
class Side:
    """One side of a battle: a family's army in the city (with its coalition partners'),
    or the invaders there."""

    realm: Realm
    city: str
    family: str | None = None
    armies: list[str] = field(default_factory=list)
    fortified: int = 0          # attacker's melee penalty when this side sits in a fortification
    per_die: int = 0            # hits added for each die this side rolls (FE 5.3)
    tunnels: bool = False       # attacking from the tunnels: no melee penalty (FE 10.2)
    lost: int = 0
    members: list[str] = field(default_factory=list)   # partner families (FE 7.0)
    melee_only: bool = False    # a sally: no projectiles, no engines (FE 7.9)
    back_after: int = 0         # a sally goes back inside once it has lost this many

    @property
    def label(self) -> str:
        return self.family or "invaders"

    @property
    def families(self) -> list[str]:
        """The leader's family first, then its partners in the order they joined."""
        return [self.family, *self.members] if self.family else []

    def units(self) -> dict[str, int]:
        if self.family is None:
            return {}
        c = self.realm.city(self.city)
        if not self.members:
            return dict(c.units_of(self.family))
        total: dict[str, int] = {}
        for fam in self.families:
            for unit, n in c.units_of(fam).items():
                total[unit] = total.get(unit, 0) + n
        return total

    def nobles(self) -> list[Noble]:
        if self.family is None:
            return []
        if not self.members:
            return self.realm.nobles_at(self.city, self.family)
        return [n for fam in self.families for n in self.realm.nobles_at(self.city, fam)]

    def foot(self) -> int:
        return sum(self.realm.s.invaders[a].foot for a in self.armies)

    def leaders(self) -> int:
        return sum(1 for a in self.armies if self.realm.s.invaders[a].leader)

    def guards(self) -> tuple[int, int]:
        """The Royal Knights and Royal Men-at-Arms of this side's free nobles (FE 13.1)."""
        nobles = self.nobles()
        return (sum(n.royal_knights for n in nobles), sum(n.royal_men_at_arms for n in nobles))

    def troops(self) -> int:
        """Units that can take hits before the nobles (FE 7.5; leaders last, 6.4)."""
        if self.family is None:
            return self.foot() + self.leaders()
        u = self.units()
        return sum(u.get(k, 0) for k in LOSS_ORDER) + sum(self.guards())

    def sp(self) -> int:
        """FE 7.3."""
        t = self.realm.t
        if self.family is None:
            return self.foot() * t.invaders.foot_sp + self.leaders() * t.invaders.leader_sp
        return sum(family_sp(self.realm, self.city, fam) for fam in self.families)

    def has_leader(self) -> bool:
        return bool(self.nobles()) if self.family else self.leaders() > 0

    def remove(self, unit: str, n: int) -> int:
        """Take ``n`` units of a kind off the map, from the partners first (the leader
        decides which troops take the hits, FE 7.0: his own last, PROPOSED); returns how
        many were found."""
        c = self.realm.city(self.city)
        done = 0
        for fam in [*self.members, *self.families[:1]]:
            k = min(n - done, c.units_of(fam).get(unit, 0))
            if k:
                self.realm.return_units(self.city, fam, unit, k)
                done += k
        return done

    def take_hits(self, hits: int) -> int:
        """Remove as many hit points of troops as possible up to ``hits`` (FE 7.5); among
        the removals that do, the leading family's LOSSES plan decides (its first troop
        lost first); returns the hits left over."""
        if self.family is None:
            return self._invader_hits(hits)
        u = self.units()
        # FE 13.1: the Royal Guard fights as Knights and Men-at-Arms and falls last
        # among its kind (PROPOSED).
        royal_k, royal_m = self.guards()
        u["knight"] = u.get("knight", 0) + royal_k
        u["men_at_arms"] = u.get("men_at_arms", 0) + royal_m
        taken, choice = _best_removal(self.realm, u, hits, self.realm.loss_order(self.family))
        for unit in LOSS_ORDER:
            n = choice.get(unit, 0)
            if not n:
                continue
            own = self.remove(unit, n)
            self._guards_fall(unit, n - own)
            self.lost += n
        return hits - taken

    def _guards_fall(self, unit: str, n: int) -> None:
        field = {"knight": "royal_knights", "men_at_arms": "royal_men_at_arms"}.get(unit)
        for noble in self.nobles():
            if n <= 0 or field is None:
                return
            have = getattr(noble, field)
            lost = min(have, n)
            setattr(noble, field, have - lost)
            n -= lost

    def _invader_hits(self, hits: int) -> int:
        t = self.realm.t
        for key in self.armies:
            army = self.realm.s.invaders[key]
            kill = min(army.foot, hits // t.invaders.foot_hits)
            army.foot -= kill
            hits -= kill * t.invaders.foot_hits
            self.lost += kill
        if self.foot() == 0:
            for key in self.armies:
                army = self.realm.s.invaders[key]
                if army.leader and hits >= t.invaders.leader_hits:
                    army.leader = False
                    hits -= t.invaders.leader_hits
                    self.lost += 1
        return hits


def family_sp(realm: Realm, city: str, family: str) -> int:
    """FE 7.3: one family's Strength Points in a city (its Royal Guard too, 13.1)."""
    t = realm.t
    u = realm.city(city).units_of(family)
    nobles = realm.nobles_at(city, family)
    sp = sum(u.get(k, 0) * t.unit(k).sp for k in LOSS_ORDER)
    knights = sum(n.royal_knights for n in nobles)
    maa = sum(n.royal_men_at_arms for n in nobles)
    sp += knights * t.unit("knight").sp + maa * t.unit("men_at_arms").sp   # FE 13.1
    sp += sum(1 for n in nobles if n.sex == "m" or n.is_lord)
    return sp


def _best_removal(realm: Realm, u: dict[str, int], hits: int,
                  order: tuple[str, ...]) -> tuple[int, dict[str, int]]:
    """FE 7.5: the removal taking the most hits up to ``hits``; among equals, the one
    first in the plan's order."""
    cost = {k: realm.t.unit(k).hits for k in LOSS_ORDER}
    best: tuple[int, tuple[int, ...]] | None = None
    choice: dict[str, int] = {}
    for knights in range(min(u.get("knight", 0), hits // cost["knight"]) + 1):
        left_k = hits - knights * cost["knight"]
        for xbow in range(min(u.get("crossbow", 0), left_k // cost["crossbow"]) + 1):
            left_x = left_k - xbow * cost["crossbow"]
            for maa in range(min(u.get("men_at_arms", 0), left_x) + 1):
                archers = min(u.get("archer", 0), left_x - maa)
                removal = {"knight": knights, "crossbow": xbow, "men_at_arms": maa,
                           "archer": archers}
                total = sum(removal[k] * cost[k] for k in removal)
                key = (total, tuple(removal[k] for k in order))
                if best is None or key > best:
                    best, choice = key, removal
    return (best[0] if best else 0), choice
