"""Server-rendered SVG line charts for the profile (rating and coins over time).

Pure Python, no Django and no JavaScript: a chart is a string of SVG the template inserts as
it is, so it draws with scripts off, prints, and costs the phone nothing. People would rather
look than read (issue 12), but a screen reader gets the same facts: the SVG has a title and a
description with the first, last, lowest and highest values.

Series are told apart by dash pattern and marker shape as well as colour (colour-blind safe).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape

#: colours with at least 3:1 contrast on white (WCAG 1.4.11, graphics), each with its own dash
STYLES: tuple[tuple[str, str, str], ...] = (
    ("#0b5d3b", "", "circle"),
    ("#b3261e", "6 3", "square"),
    ("#1d3f70", "2 3", "diamond"),
    ("#8a5a00", "8 3 2 3", "triangle"),
    ("#6a1b9a", "1 2", "circle"),
)


@dataclass(frozen=True)
class Series:
    """One line: its name for the legend and its (time, value) points, oldest first."""

    name: str
    points: Sequence[tuple[datetime, float]]


@dataclass(frozen=True)
class Box:
    # small enough that its 14 px labels stay readable when a 360 px phone shrinks it
    width: int = 480
    height: int = 240
    left: int = 52
    right: int = 16
    top: int = 16
    bottom: int = 40

    @property
    def plot_width(self) -> int:
        return self.width - self.left - self.right

    @property
    def plot_height(self) -> int:
        return self.height - self.top - self.bottom


def number(value: float) -> str:
    """A value as the axis shows it: whole numbers without decimals, others with one."""
    return f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"


def nice_range(low: float, high: float) -> tuple[float, float]:
    """Widen [low, high] a little so a flat or single-point line sits inside the plot."""
    if high - low < 1e-9:
        pad = max(abs(high) * 0.1, 1.0)
        return low - pad, high + pad
    pad = (high - low) * 0.08
    return low - pad, high + pad


def line_chart(
    series: Sequence[Series],
    *,
    title: object,
    chart_id: str,
    date_format: str = "%d/%m",
    box: Box | None = None,
) -> str:
    """An SVG line chart of ``series`` (empty series are left out); '' when nothing has points.

    ``chart_id`` makes the title and description ids unique on the page.
    """
    drawn = [s for s in series if s.points]
    if not drawn:
        return ""
    box = box or Box(top=32 if len(drawn) > 1 else 16)  # room for the legend above the plot
    times = [t.timestamp() for s in drawn for t, _ in s.points]
    values = [v for s in drawn for _, v in s.points]
    t0, t1 = min(times), max(times)
    v0, v1 = nice_range(min(values), max(values))

    def x(t: datetime) -> float:
        if t1 == t0:
            return box.left + box.plot_width / 2
        return box.left + (t.timestamp() - t0) / (t1 - t0) * box.plot_width

    def y(v: float) -> float:
        return box.top + (v1 - v) / (v1 - v0) * box.plot_height

    parts = [
        f'<svg class="chart" viewBox="0 0 {box.width} {box.height}" role="img" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-title">{escape(str(title))}</title>',
        f'<desc id="{chart_id}-desc">{escape(describe(drawn, date_format))}</desc>',
    ]
    parts += _axes(box, v0, v1, y)
    first_time = min(t for s in drawn for t, _ in s.points)
    last_time = max(t for s in drawn for t, _ in s.points)
    bottom = box.height - box.bottom + 18
    first_label = escape(first_time.strftime(date_format))
    parts.append(f'<text x="{box.left}" y="{bottom}" class="chart-label">{first_label}</text>')
    if last_time != first_time:
        parts.append(
            f'<text x="{box.width - box.right}" y="{bottom}" text-anchor="end" class="chart-label">'
            f"{escape(last_time.strftime(date_format))}</text>"
        )
    for index, s in enumerate(drawn):
        colour, dash, marker = STYLES[index % len(STYLES)]
        coords = [(x(t), y(v)) for t, v in s.points]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in coords)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5"'
            f' stroke-linejoin="round"{dash_attr}/>'
        )
        px, py = coords[-1]
        parts.append(_marker(marker, px, py, colour))
    if len(drawn) > 1:
        parts += _legend(box, drawn)
    parts.append("</svg>")
    return "".join(parts)


def describe(series: Sequence[Series], date_format: str = "%d/%m") -> str:
    """The chart in words: per line its first and last value and its range."""
    out = []
    for s in series:
        values = [v for _, v in s.points]
        first_t, first_v = s.points[0]
        last_t, last_v = s.points[-1]
        out.append(
            f"{s.name}: {number(first_v)} ({first_t.strftime(date_format)}) → "
            f"{number(last_v)} ({last_t.strftime(date_format)}); "
            f"min {number(min(values))}, max {number(max(values))}."
        )
    return " ".join(out)


def _axes(box: Box, v0: float, v1: float, y: Callable[[float], float]) -> list[str]:
    out = []
    for fraction in (0.0, 0.5, 1.0):
        value = v0 + (v1 - v0) * fraction
        py = y(value)
        out.append(
            f'<line x1="{box.left}" x2="{box.width - box.right}" y1="{py:.1f}" y2="{py:.1f}" '
            f'stroke="#d5d5d5" stroke-width="1"/>'
        )
        out.append(
            f'<text x="{box.left - 6}" y="{py + 4:.1f}" text-anchor="end" class="chart-label">'
            f"{number(value)}</text>"
        )
    return out


def _marker(shape: str, px: float, py: float, colour: str) -> str:
    if shape == "square":
        return f'<rect x="{px - 4:.1f}" y="{py - 4:.1f}" width="8" height="8" fill="{colour}"/>'
    if shape == "diamond":
        return (
            f'<polygon points="{px:.1f},{py - 5:.1f} {px + 5:.1f},{py:.1f} {px:.1f},{py + 5:.1f} '
            f'{px - 5:.1f},{py:.1f}" fill="{colour}"/>'
        )
    if shape == "triangle":
        return (
            f'<polygon points="{px:.1f},{py - 5:.1f} {px + 5:.1f},{py + 4:.1f} {px - 5:.1f},{py + 4:.1f}" '
            f'fill="{colour}"/>'
        )
    return f'<circle cx="{px:.1f}" cy="{py:.1f}" r="4.5" fill="{colour}"/>'


def _legend(box: Box, series: Sequence[Series]) -> list[str]:
    out = []
    x = box.left
    for index, s in enumerate(series):
        colour, dash, marker = STYLES[index % len(STYLES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<line x1="{x}" x2="{x + 22}" y1="8" y2="8" stroke="{colour}" stroke-width="2.5"{dash_attr}/>'
        )
        out.append(_marker(marker, x + 11, 8, colour))
        out.append(f'<text x="{x + 26}" y="12" class="chart-label">{escape(s.name)}</text>')
        x += 34 + 7 * len(s.name)
    return out
