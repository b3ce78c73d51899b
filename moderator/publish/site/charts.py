"""Charts for the archive site: static SVG drawn with matplotlib, byte for byte the same
on every run (no date in the metadata, a fixed hash salt for the element ids, text kept
as text rather than glyph paths, so no font cache enters the file).

matplotlib's object API is used directly (no pyplot): no global figure state, safe in
the scheduler's threads, and faster.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import matplotlib
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure

matplotlib.rcParams.update({
    "svg.hashsalt": "moderator-site",
    "svg.fonttype": "none",
    "font.family": "DejaVu Serif",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "path.simplify": False,
})
# Distinguishable colours and dashes, so lines can be told apart in print too.
_COLOURS = ("#1b4f72", "#a93226", "#1e8449", "#7d3c98", "#b9770e", "#117a65", "#6e2c00",
            "#2e4053", "#c0392b", "#27ae60", "#8e44ad", "#d68910")
_STYLES = ("-", "--", "-.", ":")


@dataclass(frozen=True)
class Series:
    label: str
    values: Sequence[float | None]  # one per x; None where there is no value


def line_chart(title: str, xlabels: Sequence[str], series: Sequence[Series],
               ylabel: str, *, width: float = 6.4, height: float = 3.0,
               legend: bool = True) -> str:
    """An SVG line chart: one line per series over the issues named by ``xlabels``."""
    fig = Figure(figsize=(width, height))
    FigureCanvasSVG(fig)
    ax = fig.add_subplot(1, 1, 1)
    xs = list(range(len(xlabels)))
    for k, s in enumerate(series):
        points = [(x, v) for x, v in zip(xs, s.values, strict=False) if v is not None]
        if not points:
            continue
        ax.plot([p[0] for p in points], [p[1] for p in points],
                color=_COLOURS[k % len(_COLOURS)],
                linestyle=_STYLES[(k // len(_COLOURS)) % len(_STYLES)],
                marker="o", markersize=3, linewidth=1.5, label=s.label)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    step = max(1, len(xlabels) // 8)  # at most about eight labels on the axis
    ax.set_xticks(xs[::step], [xlabels[i] for i in xs[::step]])
    ax.tick_params(axis="x", labelsize=7)
    ax.grid(True, axis="y", color="#dddddd", linewidth=0.6)
    if legend and len(series) > 1:
        ax.legend(fontsize=7, frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.tight_layout()
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    return out.getvalue()


def by_key(rows: Sequence[Mapping[str, float | None]], keys: Sequence[str],
           labels: Mapping[str, str]) -> list[Series]:
    """Rows (one mapping per issue) turned into one series per key."""
    return [Series(labels.get(k, k), [row.get(k) for row in rows]) for k in keys]
