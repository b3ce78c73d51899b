"""Charts for the archive site: static SVG drawn with pygal, byte for byte the same on
every run.

pygal writes SVG directly (no text measuring, no font cache), about eight times faster
than matplotlib here, which matters for a game of a thousand characters with a chart
each.  Two things are made deterministic: the chart's id (pygal draws a random UUID; ours
is derived from the chart's own content) and the interactive parts (pygal's inline
script and tooltips are dropped: the site's charts are pictures, shown with ``<img>``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pygal
from pygal.style import Style

# Distinguishable colours, so the lines can be told apart in print too.
_COLOURS = ("#1b4f72", "#a93226", "#1e8449", "#7d3c98", "#b9770e", "#117a65", "#6e2c00",
            "#2e4053", "#c0392b", "#27ae60", "#8e44ad", "#d68910")
_STYLE = Style(
    background="#fffdf7", plot_background="#fffdf7", foreground="#222222",
    foreground_strong="#222222", foreground_subtle="#999999", opacity="1",
    opacity_hover="1", colors=_COLOURS, font_family="Georgia, 'DejaVu Serif', serif",
    title_font_size=15, label_font_size=11, major_label_font_size=11,
    legend_font_size=11, value_font_size=10, tooltip_font_size=10,
)
_SCRIPT = re.compile(r"<script\b.*?</script>", re.S)
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@dataclass(frozen=True)
class Series:
    label: str
    values: Sequence[float | None]  # one per x; None where there is no value


def line_chart(title: str, xlabels: Sequence[str], series: Sequence[Series],
               ylabel: str, *, width: int = 640, height: int = 300,
               legend: bool = True) -> str:
    """An SVG line chart: one line per series over the issues named by ``xlabels``."""
    chart = pygal.Line(
        width=width, height=height, explicit_size=True, style=_STYLE, js=[],
        show_legend=legend and len(series) > 1, legend_at_bottom=True,
        legend_at_bottom_columns=min(4, max(1, len(series))), truncate_legend=-1,
        x_label_rotation=0, show_minor_x_labels=False, truncate_label=-1,
        x_labels_major_every=max(1, len(xlabels) // 6), dots_size=2.5, stroke_style={
            "width": 2}, print_values=False, tooltip_border_radius=0,
        disable_xml_declaration=False, pretty_print=False)
    # The measure goes in the title: pygal's y_title wraps with the plot's height, and
    # loops for ever on a narrow one.  A title is kept to one line for the same reason.
    chart.title = _one_line(f"{title} ({ylabel})" if ylabel else title, width)
    chart.x_labels = list(xlabels)
    for s in series:
        chart.add(s.label, list(s.values))
    key = hashlib.sha256(repr((title, list(xlabels), [(s.label, list(s.values))
                                                       for s in series])).encode())
    chart.uuid = _as_uuid(key.hexdigest())
    svg = chart.render(is_unicode=True)
    return _SCRIPT.sub("", svg) + ("" if svg.endswith("\n") else "\n")


def _one_line(text: str, width: int) -> str:
    room = max(10, width // 10)
    text = " ".join(text.split())
    return text if len(text) <= room else text[:room - 1] + "…"


def _as_uuid(hexdigest: str) -> str:
    h = hexdigest[:32]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def by_key(rows: Sequence[Mapping[str, float | None]], keys: Sequence[str],
           labels: Mapping[str, str]) -> list[Series]:
    """Rows (one mapping per issue) turned into one series per key."""
    return [Series(labels.get(k, k), [row.get(k) for row in rows]) for k in keys]
