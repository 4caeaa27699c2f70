"""A report's charts, drawn offline with matplotlib: SVG for the report page, PNG for the PDF.

A document may carry ``"charts"``, a list of plain-JSON specs stored with it:

    {"key": "outcomes", "title": "Outcome frequency", "type": "bars",
     "x_title": "Number", "y_title": "Rounds", "labels": ["0", …, "12"], "values": [int, …],
     "reference": {"label": "Expected", "value": 123.4, "low": 100.2, "high": 146.6}}
    {"key": "daily_hold", "title": "…", "type": "band", "x_title": "…", "y_title": "…",
     "percent": true, "labels": ["2026-10-01", …], "values": [0.041 | null, …],
     "expected": [0.0385, …], "low": […], "high": […]}

``reference`` (bars only) is optional, and so are its ``low`` and ``high`` (both or neither);
``forecast`` (band only) draws the expectation and its band alone, with no actual values (a
PAR sheet's hold to expect over a number of rounds): its ``values`` are all null;
``money`` means values in cents, plotted in dollars; ``percent`` means fractions shown as
percentages; ``null`` is a day without play (no bar, no point). A chart with no values, or
only nulls (bars: or only zeros), says "No Activity" instead. The key names the chart's
address on the report page, so it is a slug.

Matplotlib is used through its object-oriented API only: each call builds its own
``Figure`` on its own canvas and drops it. Never pyplot, whose registry of open figures is
global state, unsafe across threads and never emptied in a long-lived worker.
"""

from __future__ import annotations

import io
import math
import os
import re
import sys
from pathlib import Path
from typing import Any


def _config_dir_in_var() -> None:
    """Keep matplotlib's config and font cache in the project's var folder (unless the
    operator named one): a worker whose HOME is not writable would otherwise build the font
    list again in a new temporary folder at every start, warning each time, and a personal
    ~/.config/matplotlib/matplotlibrc would change how the charts look. Only takes effect
    before matplotlib's first import, hence here, above the imports."""
    if "MPLCONFIGDIR" in os.environ or "matplotlib" in sys.modules:
        return
    try:
        from django.conf import settings
        from django.core.exceptions import ImproperlyConfigured
    except ImportError:
        return
    try:
        folder = Path(settings.VAR_DIR) / "matplotlib"
        folder.mkdir(parents=True, exist_ok=True)
    except (ImproperlyConfigured, AttributeError, OSError):
        return  # no Django settings, or no var folder: matplotlib finds a place itself
    os.environ["MPLCONFIGDIR"] = str(folder)


_config_dir_in_var()

import matplotlib  # noqa: E402
import PIL.Image  # noqa: E402  (Pillow: a dependency of matplotlib's)
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.backends.backend_svg import FigureCanvasSVG  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator, PercentFormatter  # noqa: E402

from portal.reports.document import NO_ACTIVITY  # noqa: E402

# The SVG writer names markers and clip paths by hashing them with this salt, a fresh UUID
# per file when unset; a fixed salt makes two drawings of one chart byte-identical. It is
# an rcParam only (no savefig argument), so it is set once here, never per call (a
# per-call rc_context would race between threads). Each SVG is shown through its own <img>,
# a document of its own, so charts sharing ids on one page cannot collide.
if matplotlib.rcParams["svg.hashsalt"] is None:
    matplotlib.rcParams["svg.hashsalt"] = "jinzi-report-charts"

CHART_TYPES = ("bars", "band")
REQUIRED = ("key", "title", "type", "x_title", "y_title", "labels", "values")
OPTIONAL = {"bars": ("reference", "money", "percent"), "band": ("money", "percent", "forecast")}
BAND_SERIES = ("expected", "low", "high")  # required for a band chart, one per label
SLUG = re.compile(r"[-a-zA-Z0-9_]+")  # Django's <slug:…>: the key is part of a URL

FIGURE_SIZE = (10.0, 3.75)  # inches: the PDF's text width, about two charts to a page
FONT = "DejaVu Sans"  # ships inside matplotlib: nothing looked up on the system or fetched
TICK_SIZE = 8.0
AXES_WIDTH = FIGURE_SIZE[0] * 72 - 80  # points: the figure less the y axis and its labels
COLOURS = {  # Okabe-Ito: told apart with any colour vision
    "bars": "#0072B2",
    "actual": "#0072B2",
    "expected": "#D55E00",
    "band": "#E69F00",
}


# --- The spec -----------------------------------------------------------------------------


def document_charts(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The document's chart specs, each checked, keys unique; [] when it has none."""
    charts = document.get("charts") or []
    if not isinstance(charts, list):
        raise ValueError("a document's charts are a list of chart specs")
    keys = [validate_chart(chart)["key"] for chart in charts]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise ValueError(f"chart keys must be unique; repeated: {', '.join(repeated)}")
    return charts


def validate_chart(chart: Any) -> dict[str, Any]:
    """The spec itself if it is one this module can draw; else ValueError saying why."""
    if not isinstance(chart, dict):
        raise ValueError(f"a chart spec is an object, not {type(chart).__name__}")
    name = chart.get("key", "?")
    kind = chart.get("type")
    if kind not in CHART_TYPES:
        raise ValueError(f"chart {name!r}: unknown type {kind!r}; known: {', '.join(CHART_TYPES)}")
    missing = [field for field in REQUIRED + _series(kind) if field not in chart]
    if missing:
        raise ValueError(f"chart {name!r}: missing {', '.join(missing)}")
    unknown = sorted(set(chart) - set(REQUIRED + _series(kind) + OPTIONAL[kind]))
    if unknown:
        raise ValueError(f"chart {name!r}: unknown field(s) {', '.join(unknown)}")
    if not isinstance(name, str) or not SLUG.fullmatch(name):
        raise ValueError(f"chart key {name!r} must be letters, digits, '-' or '_'")
    for field in ("title", "x_title", "y_title"):
        if not isinstance(chart[field], str):
            raise ValueError(f"chart {name!r}: {field} must be text")
    for flag in ("money", "percent", "forecast"):
        if not isinstance(chart.get(flag, False), bool):
            raise ValueError(f"chart {name!r}: {flag} must be true or false")
    if chart.get("money") and chart.get("percent"):
        raise ValueError(f"chart {name!r}: money and percent exclude each other")
    labels = chart["labels"]
    if not isinstance(labels, list) or not all(isinstance(label, str) for label in labels):
        raise ValueError(f"chart {name!r}: labels must be a list of text")
    for field in ("values", *_series(kind)):
        series = chart[field]
        if not isinstance(series, list) or len(series) != len(labels):
            count = len(series) if isinstance(series, list) else "no list"
            raise ValueError(
                f"chart {name!r}: {field} has {count} entries, labels {len(labels)}; "
                "each label needs exactly one"
            )
        for value in series:
            _check_number(name, field, value, whole=bool(chart.get("money")), null=True)
    if chart.get("forecast") and any(value is not None for value in chart["values"]):
        raise ValueError(f"chart {name!r}: a forecast has no values of its own (all null)")
    if kind == "band":
        for low, high in zip(chart["low"], chart["high"], strict=True):
            if low is not None and high is not None and low > high:
                raise ValueError(f"chart {name!r}: a low ({low}) above its high ({high})")
    if chart.get("reference") is not None:
        _check_reference(name, chart["reference"])
    return chart


def _series(kind: str) -> tuple[str, ...]:
    return BAND_SERIES if kind == "band" else ()


def _check_number(name: str, field: str, value: Any, *, whole=False, null=False) -> None:
    if value is None and null:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"chart {name!r}: {field} holds {value!r}, not a number")
    if whole and value != int(value):
        raise ValueError(f"chart {name!r}: {field} holds {value!r}, not a whole number of cents")


def _check_reference(name: str, reference: Any) -> None:
    if not isinstance(reference, dict) or not isinstance(reference.get("label"), str):
        raise ValueError(f"chart {name!r}: reference is an object with a text label")
    unknown = sorted(set(reference) - {"label", "value", "low", "high"})
    if unknown:
        raise ValueError(f"chart {name!r}: unknown reference field(s) {', '.join(unknown)}")
    _check_number(name, "reference value", reference.get("value"))
    if ("low" in reference) != ("high" in reference):
        raise ValueError(f"chart {name!r}: a reference has both low and high, or neither")
    if "low" in reference:
        _check_number(name, "reference low", reference["low"])
        _check_number(name, "reference high", reference["high"])
        if reference["low"] > reference["high"]:
            raise ValueError(f"chart {name!r}: the reference's low is above its high")


# --- Drawing ------------------------------------------------------------------------------


def chart_svg(chart: dict[str, Any]) -> bytes:
    """The chart as a standalone SVG document (text as paths: no font needed to view it)."""
    figure = _draw(validate_chart(chart))
    FigureCanvasSVG(figure)  # becomes the figure's canvas: savefig draws with it
    out = io.BytesIO()
    # Date None: no timestamp, so the same chart is the same bytes (with the fixed salt).
    figure.savefig(out, format="svg", metadata={"Date": None, "Title": chart["title"]})
    return out.getvalue()


def chart_png(
    chart: dict[str, Any], *, dpi: int = 150, size: tuple[float, float] = FIGURE_SIZE
) -> bytes:
    """The chart as a PNG, ``size`` inches (``FIGURE_SIZE`` unless told), ``dpi`` pixels to
    the inch.

    RGB, not matplotlib's RGBA: the chart is opaque anyway, and ReportLab would give each
    RGBA image of the PDF a soft mask besides."""
    figure = _draw(validate_chart(chart), dpi=dpi, size=size)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    pixels = PIL.Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba())
    out = io.BytesIO()
    pixels.convert("RGB").save(out, format="PNG", dpi=(dpi, dpi))  # no date, no software
    return out.getvalue()


def _draw(
    chart: dict[str, Any], *, dpi: float = 72, size: tuple[float, float] = FIGURE_SIZE
) -> Figure:
    figure = Figure(figsize=size, dpi=dpi, layout="constrained", facecolor="white")
    axes = figure.add_subplot()
    if _no_activity(chart):
        axes.set_axis_off()
        axes.text(
            0.5,
            0.5,
            NO_ACTIVITY,
            ha="center",
            va="center",
            fontsize=14,
            fontfamily=FONT,
            color="#555555",
            transform=axes.transAxes,
            parse_math=False,
        )
        return figure
    scale = 0.01 if chart.get("money") else 1  # cents drawn as dollars
    positions = range(len(chart["labels"]))
    handles: list[Any] = []
    if chart["type"] == "bars":
        handles += _draw_bars(axes, chart, positions, scale)
    else:
        handles += _draw_band(axes, chart, positions, scale)
    _style_axes(axes, chart)
    if len(handles) > 1:  # one series needs no key: the y axis names it
        legend = figure.legend(
            handles=handles,
            loc="outside upper left",
            ncols=len(handles),
            frameon=False,
            prop={"family": FONT, "size": TICK_SIZE},
        )
        for text in legend.get_texts():
            text.set_parse_math(False)  # a "$" in a label is a dollar, not TeX
    return figure


def _no_activity(chart: dict[str, Any]) -> bool:
    """No values, or only nulls; for bars, zeros too: zero rounds or zero handle on every
    day is a period without play, and zero-height bars would only draw an empty frame. A
    forecast has no values of its own: it has nothing to draw only without labels."""
    if chart.get("forecast"):
        return not chart["labels"]
    nothing = (None, 0) if chart["type"] == "bars" else (None,)
    return all(value in nothing for value in chart["values"])


def _numbers(series: list[Any], scale: float) -> list[float]:
    """The series to plot: None becomes NaN, which matplotlib leaves out (a gap)."""
    return [math.nan if value is None else value * scale for value in series]


def _draw_bars(axes, chart, positions, scale) -> list[Any]:
    # One collection of rectangles, not one artist per bar as ``Axes.bar`` makes: a year
    # of daily bars draws in a third of the time.
    heights = _numbers(chart["values"], scale)
    rectangles = [
        [(x - 0.4, 0), (x - 0.4, height), (x + 0.4, height), (x + 0.4, 0)]
        for x, height in zip(positions, heights, strict=True)
        if not math.isnan(height)
    ]
    bars = PolyCollection(rectangles, facecolors=COLOURS["bars"], linewidths=0)
    bars.sticky_edges.y.append(0)  # the y axis starts at zero, no margin below, as bar's do
    axes.add_collection(bars, autolim=True)
    axes.autoscale_view()
    handles = [Patch(color=COLOURS["bars"], label=chart["y_title"] or "Values")]
    reference = chart.get("reference")
    if reference is not None:
        colour = COLOURS["expected"]
        axes.axhline(reference["value"] * scale, color=colour, linewidth=1.5, zorder=3)
        handles.append(Line2D([], [], color=colour, linewidth=1.5, label=reference["label"]))
        if "low" in reference:
            low, high = reference["low"] * scale, reference["high"] * scale
            axes.axhspan(low, high, color=COLOURS["band"], alpha=0.25, linewidth=0, zorder=0)
            shown = f"Range {_shown(chart, low)} to {_shown(chart, high)}"
            handles.append(Patch(color=COLOURS["band"], alpha=0.25, label=shown))
    return handles


def _draw_band(axes, chart, positions, scale) -> list[Any]:
    # The expectation and its band are each day's own (they follow that day's bets), so
    # they are drawn as steps a day wide: a day between two without play still shows them.
    edges = [x + side for x in positions for side in (-0.5, 0.5)]
    expected, low, high = (_steps(_numbers(chart[name], scale)) for name in BAND_SERIES)
    axes.fill_between(edges, low, high, color=COLOURS["band"], alpha=0.25, linewidth=0)
    axes.plot(edges, expected, color=COLOURS["expected"], linewidth=1.2)
    shown = [
        Line2D([], [], color=COLOURS["expected"], linewidth=1.2, label="Expected"),
        Patch(color=COLOURS["band"], alpha=0.25, label="Expected range (low to high)"),
    ]
    if chart.get("forecast"):
        return shown
    many = len(positions) > 60
    axes.plot(
        positions,
        _numbers(chart["values"], scale),
        color=COLOURS["actual"],
        linewidth=0.8,
        marker="o",
        markersize=2.5 if many else 4,
    )
    actual = Line2D([], [], color=COLOURS["actual"], marker="o", markersize=4, label="Actual")
    return [actual, *shown]


def _steps(series: list[float]) -> list[float]:
    """Each value twice, for the two edges of its day."""
    return [value for value in series for _ in range(2)]


def _shown(chart: dict[str, Any], value: float) -> str:
    if chart.get("percent"):
        return f"{value * 100:.2f}%"
    if chart.get("money"):
        return f"${value:,.2f}"
    return f"{value:,.1f}"


def _style_axes(axes, chart: dict[str, Any]) -> None:
    labels = chart["labels"]
    ticks = _thinned_ticks(labels)
    axes.set_xticks(ticks, [labels[i] for i in ticks], parse_math=False)
    axes.set_xlim(-0.6, len(labels) - 0.4)
    axes.tick_params(labelsize=TICK_SIZE, labelfontfamily=FONT)
    axes.set_xlabel(chart["x_title"], fontfamily=FONT, fontsize=9, parse_math=False)
    axes.set_ylabel(chart["y_title"], fontfamily=FONT, fontsize=9, parse_math=False)
    if chart.get("percent"):
        axes.yaxis.set_major_formatter(PercentFormatter(xmax=1.0))
    elif chart.get("money"):
        axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"${value:,.0f}"))
    elif all(isinstance(value, int) for value in chart["values"] if value is not None):
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # no "2.5 rounds"
        axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
    axes.grid(axis="y", color="#dddddd", linewidth=0.6)
    axes.set_axisbelow(True)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)


def _thinned_ticks(labels: list[str]) -> list[int]:
    """Which labels to write under the x axis: as many as fit side by side, evenly spaced
    from the first (365 days get one label in about 34, 13 numbers get all 13)."""
    if not labels:
        return []
    longest = max(len(label) for label in labels)
    # DejaVu Sans averages about 0.62 em a character; one em of space between labels.
    room = (longest * 0.62 + 1) * TICK_SIZE
    most = max(2, int(AXES_WIDTH // room))
    step = math.ceil(len(labels) / most)
    return list(range(0, len(labels), step))
