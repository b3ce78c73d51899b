"""A deterministic SVG sketch of England, each city coloured by its holder."""

from __future__ import annotations

from moderator.games.fief.state import GameState
from moderator.games.fief.tables import Tables

# Rough positions on a 300 x 400 canvas (north up), for the reconstructed map only.
POSITIONS = {
    "Berwick": (170, 30), "Durham": (180, 80), "York": (190, 130), "Whitby": (235, 110),
    "Lincoln": (225, 175), "Nottingham": (185, 190), "King's Lynn": (250, 210),
    "Norwich": (285, 215), "Coventry": (170, 235), "Harlech": (85, 205), "Cardiff": (95, 290),
    "Bristol": (125, 295), "Oxford": (180, 280), "London": (235, 300),
    "Canterbury": (285, 320), "Winchester": (180, 335), "Exeter": (90, 345),
    "Plymouth": (50, 370),
}
COLOURS = {"Red": "#c0392b", "Green": "#27ae60", "Blue": "#2e86c1", "Yellow": "#f1c40f"}


def svg_map(state: GameState, tables: Tables) -> str:
    lines = ['<svg xmlns="http://www.w3.org/2000/svg" width="320" height="400" '
             'viewBox="0 0 320 400" font-family="serif" font-size="9">']
    for road in sorted(tables.roads, key=lambda r: (r.a, r.b)):
        (x1, y1), (x2, y2) = POSITIONS.get(road.a, (0, 0)), POSITIONS.get(road.b, (0, 0))
        lines.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#999"/>')
    for city in tables.city_names:
        x, y = POSITIONS.get(city, (0, 0))
        c = state.cities.get(city)
        holder = c.holder if c else None
        fill = COLOURS.get(holder or "", "#ffffff")
        invaded = any(a.city == city for a in state.invaders.values())
        stroke = "#000" if not invaded else "#800080"
        lines.append(f'<circle cx="{x}" cy="{y}" r="7" fill="{fill}" stroke="{stroke}" '
                     f'stroke-width="{3 if invaded else 1}"/>')
        lines.append(f'<text x="{x + 9}" y="{y + 3}">{city.replace("&", "&amp;")}</text>')
    lines.append("</svg>")
    return "\n".join(lines)
