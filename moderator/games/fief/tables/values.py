"""The frozen values the tables load into (FE Setup, Components, 2-13).

Every number the rules use lives here, read from ``data/fief/*.toml`` with its provenance,
so a GM can override any PROPOSED value per game from config.toml.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Region:
    number: int
    key: str
    name: str
    cities: tuple[str, ...]
    port: str
    district: str
    status: str
    # The name in a sentence: "Duchess of the Midlands", "Baroness of Wales" (FE 9.1 Ex).
    styled: str = ""

    @property
    def numeral(self) -> str:
        return ("", "I", "II", "III", "IV", "V", "VI")[self.number]

    @property
    def title(self) -> str:
        """Barony, County or Duchy by its number of cities (FE 4.3)."""
        return {2: "Barony", 3: "County"}.get(len(self.cities), "Duchy")


@dataclass(frozen=True)
class District:
    key: str
    name: str
    rank: str
    cathedral: str
    status: str


@dataclass(frozen=True)
class Road:
    a: str
    b: str
    dir_ab: str
    dir_ba: str
    status: str


@dataclass(frozen=True)
class NobleCard:
    name: str
    sex: str
    status: str

    @property
    def key(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Unit:
    key: str
    name: str
    plural: str
    cost: int
    sp: int
    hits: int
    stock: int
    status: str


@dataclass(frozen=True)
class SetupRules:
    players_min: int
    players_max: int
    colours: tuple[str, ...]
    start_cash: int
    removed_per_sex: int
    start_knights: int
    start_men_at_arms: int
    start_stronghold: bool
    start_cities: tuple[str, ...]
    random_start: bool


@dataclass(frozen=True)
class CardRules:
    hand_limit: int
    hand_limit_two_players: int
    draws: int
    draws_two_players: int
    character_draws: int
    character_draws_two_players: int
    disaster_track: int
    nobles_max: int


@dataclass(frozen=True)
class MoneyRules:
    city_income: int
    mill_income: int
    abbey_income: int
    fortune_bonus: int
    queen_income: int
    tallage_per_city: int
    tithe_per_mill: int
    scorch_bonus: int
    title_cost_per_city: int
    ransom_base: int
    ransom_per_title: int
    danegeld: int


@dataclass(frozen=True)
class BattleRules:
    die_faces: tuple[int, ...]
    dice_thresholds: tuple[int, ...]
    stronghold_penalty: int
    fortified_penalty: int
    archer_bonus_from: int
    archers_vs_stronghold: int
    archers_vs_fortified: int
    deadlock_rounds: int
    max_battle_rounds: int
    cavalcade_defender_bonus: int


@dataclass(frozen=True)
class InvaderRules:
    armies: int
    foot_per_army: int
    reinforcements: int
    foot_sp: int
    leader_sp: int
    foot_hits: int
    leader_hits: int
    moves: int


@dataclass(frozen=True)
class PlagueRules:
    noble_dies_on: tuple[int, ...]


@dataclass(frozen=True)
class VictoryRules:
    first_round: int
    last_round: int
    solo_vp: int
    alliance_vp: int
    two_player_vp: int
    three_player_vp: int


@dataclass(frozen=True)
class BuildingRules:
    stronghold_cost: int
    mill_cost: int
    royal_stronghold_cost: int
    strongholds: int
    abbeys: int
    mills: int
    new_units_per_city: int


@dataclass(frozen=True)
class Tables:
    regions: tuple[Region, ...]
    districts: tuple[District, ...]
    roads: tuple[Road, ...]
    bandit_cities: tuple[str, ...]
    bandit_capture_on: tuple[int, ...]
    sea_links: tuple[tuple[int, int], ...]
    nobles: tuple[NobleCard, ...]
    character_cards: tuple[tuple[str, int], ...]
    fortune_cards: tuple[tuple[str, int], ...]
    opportunity: frozenset[str]
    disaster_cards: tuple[tuple[str, int], ...]
    retainers: tuple[tuple[str, int, str], ...]
    abbey_names: tuple[str, ...]
    units: tuple[Unit, ...]
    buildings: BuildingRules
    setup: SetupRules
    cards: CardRules
    money: MoneyRules
    battle: BattleRules
    invaders: InvaderRules
    plague: PlagueRules
    victory: VictoryRules
    provenance: tuple[tuple[str, str], ...] = ()
    _neighbours: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False,
                                                   repr=False)

    def __post_init__(self) -> None:
        links: dict[str, list[str]] = {c: [] for r in self.regions for c in r.cities}
        for road in self.roads:
            links[road.a].append(road.b)
            links[road.b].append(road.a)
        for city, near in links.items():
            self._neighbours[city] = tuple(sorted(near))

    # -- the map ---------------------------------------------------------------------
    @property
    def city_names(self) -> tuple[str, ...]:
        return tuple(c for r in self.regions for c in r.cities)

    def neighbours(self, city: str) -> tuple[str, ...]:
        """Cities one road away (FE 5.0), sorted so results never depend on data order."""
        return self._neighbours[city]

    def region_of(self, city: str) -> Region:
        return next(r for r in self.regions if city in r.cities)

    def region(self, key_or_number: str | int) -> Region:
        return next(r for r in self.regions
                    if r.key == key_or_number or r.number == key_or_number)

    def district(self, key: str) -> District:
        return next(d for d in self.districts if d.key == key)

    def direction(self, a: str, b: str) -> str:
        for road in self.roads:
            if (road.a, road.b) == (a, b):
                return road.dir_ab
            if (road.b, road.a) == (a, b):
                return road.dir_ba
        raise KeyError((a, b))

    def ports(self) -> dict[str, int]:
        return {r.port: r.number for r in self.regions}

    def sea_distance(self, a: int, b: int) -> int:
        """Seas entered to go from sea a to sea b around the ring (FE 5.4)."""
        n = len(self.regions)
        d = abs(a - b) % n
        return min(d, n - d)

    def unit(self, key: str) -> Unit:
        return next(u for u in self.units if u.key == key)

    def hand_limit(self, players: int) -> int:
        return self.cards.hand_limit_two_players if players == 2 else self.cards.hand_limit

    def draw_limits(self, players: int) -> tuple[int, int]:
        """(cards, of which Character) a player may draw in 2B (FE 2.0, 13.7)."""
        if players == 2:
            return self.cards.draws_two_players, self.cards.character_draws_two_players
        return self.cards.draws, self.cards.character_draws

    def battle_dice(self, sp: int) -> int:
        """FE 7.3: 1-6 SP one die, 7-12 two, 13 or more three."""
        return sum(1 for t in self.battle.dice_thresholds if sp >= t)

    def noble_card(self, name: str) -> NobleCard:
        return next(n for n in self.nobles if n.key == name.lower())
