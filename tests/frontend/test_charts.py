"""The profile's server-rendered SVG charts (frontend/charts.py): pure, escaped, accessible."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

from frontend.charts import Box, Series, describe, line_chart, nice_range, number

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
SVG = "{http://www.w3.org/2000/svg}"


def points(*values: float) -> list[tuple[datetime, float]]:
    return [(T0 + timedelta(days=i), v) for i, v in enumerate(values)]


def test_no_points_draws_nothing() -> None:
    assert line_chart([], title="x", chart_id="c") == ""
    assert line_chart([Series("Pika", [])], title="x", chart_id="c") == ""


def test_a_chart_is_well_formed_svg_with_a_title_and_description_for_screen_readers() -> None:
    svg = line_chart([Series("Monedas", points(1000, 1200, 900))], title="Monedas", chart_id="coins")
    root = ET.fromstring(svg)
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "coins-title coins-desc"
    assert root.find(f"{SVG}title").text == "Monedas"
    assert root.find(f"{SVG}desc").text == "Monedas: 1000 (02/11) → 900 (04/11); min 900, max 1200."


def test_higher_values_are_drawn_higher_and_later_ones_further_right() -> None:
    svg = line_chart([Series("R", points(10, 30, 20))], title="R", chart_id="r")
    line = ET.fromstring(svg).find(f"{SVG}polyline")
    coords = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
    xs, ys = [c[0] for c in coords], [c[1] for c in coords]
    assert xs == sorted(xs) and len(set(xs)) == 3
    assert ys[1] < ys[2] < ys[0]  # SVG's y grows downwards: 30 is highest on screen


def test_every_series_has_its_own_dash_pattern_and_a_legend() -> None:
    svg = line_chart(
        [Series("One Card", points(1, 2)), Series("Pika", points(3, 1)), Series("Skyjo", points(2, 2))],
        title="Puntuación",
        chart_id="rating",
    )
    root = ET.fromstring(svg)
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == 3
    assert len({line.get("stroke-dasharray") for line in lines}) == 3  # not told apart by colour alone
    labels = [t.text for t in root.findall(f"{SVG}text")]
    assert {"One Card", "Pika", "Skyjo"} <= set(labels)


def test_a_single_point_or_a_flat_line_stays_inside_the_plot() -> None:
    assert nice_range(5, 5) == (4, 6)
    svg = line_chart([Series("R", points(7))], title="R", chart_id="r")
    line = ET.fromstring(svg).find(f"{SVG}polyline")
    x, y = map(float, line.get("points").split(","))
    box = Box()
    assert box.left <= x <= box.width - box.right and box.top <= y <= box.height - box.bottom


def test_names_and_titles_are_escaped() -> None:
    svg = line_chart([Series("<b>&", points(1, 2))], title='"><script>', chart_id="e")
    assert "<script>" not in svg and "<b>" not in svg
    ET.fromstring(svg)  # still well formed


def test_axis_numbers_and_description() -> None:
    assert number(12.0) == "12" and number(12.26) == "12.3" and number(-3.0) == "-3"
    assert describe([Series("A", points(1.5, 2.5))]) == "A: 1.5 (02/11) → 2.5 (03/11); min 1.5, max 2.5."
    svg = line_chart([Series("A", points(1, 2))], title="A", chart_id="a")
    assert re.search(r'class="chart-label">02/11<', svg)
