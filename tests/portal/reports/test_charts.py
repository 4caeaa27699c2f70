"""A report's charts: drawn offline with matplotlib as SVG and PNG, the same bytes every time,
in the PDF after the header, and on the run's page to those who may see the run."""

from __future__ import annotations

import dataclasses
import datetime
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from defusedxml import ElementTree

from portal.reports import definitions, render
from portal.reports.document import NO_ACTIVITY
from portal.reports.models import ReportFile
from portal.reports.render.chart_drawing import (
    chart_png,
    chart_svg,
    document_charts,
    validate_chart,
)
from portal.reports.services import runs
from tests.portal.reports.test_render import make_document, written

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DAYS = [(datetime.date(2026, 1, 1) + datetime.timedelta(days=n)).isoformat() for n in range(365)]


def outcomes_chart():
    return {
        "key": "outcomes",
        "title": "Outcome frequency",
        "type": "bars",
        "x_title": "Number",
        "y_title": "Rounds",
        "labels": [str(number) for number in range(13)],
        "values": [120, 131, 118, 125, 140, 99, 123, 127, 110, 122, 135, 119, 128],
        "reference": {
            "label": "Expected (1/13 of rounds)",
            "value": 123.6,
            "low": 102.1,
            "high": 145.1,
        },
    }


def daily_hold_chart(days=DAYS):
    return {
        "key": "daily_hold",
        "title": "Daily hold % against the expected band",
        "type": "band",
        "x_title": "Gaming day",
        "y_title": "Hold %",
        "percent": True,
        "labels": days,
        "values": [None if n % 7 == 6 else 0.0385 + (n % 11 - 5) / 500 for n in range(len(days))],
        "expected": [0.0385] * len(days),
        "low": [0.0185] * len(days),
        "high": [0.0585] * len(days),
    }


def daily_handle_chart():
    return {
        "key": "daily_handle",
        "title": "Handle per gaming day",
        "type": "bars",
        "x_title": "Gaming day",
        "y_title": "Handle (dollars)",
        "money": True,
        "labels": DAYS[:31],
        "values": [250_000 + 1_000 * n for n in range(31)],
    }


CHARTS = [outcomes_chart, daily_hold_chart, daily_handle_chart]


def svg_texts(svg: bytes) -> list[str]:
    """The texts drawn in an SVG: matplotlib draws glyphs as paths, each text run preceded
    by a comment holding the text itself (which ElementTree's parser leaves out)."""
    return [text.strip() for text in re.findall(r"<!-- (.*?) -->", svg.decode(), re.DOTALL)]


# --- Drawing ------------------------------------------------------------------------------


@pytest.mark.parametrize("make", CHARTS, ids=[make.__name__ for make in CHARTS])
def test_each_chart_type_draws_as_svg_and_png_the_same_bytes_every_time(make):
    svg, png = chart_svg(make()), chart_png(make())

    root = ElementTree.fromstring(svg)  # well-formed, no entities
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert png.startswith(PNG_MAGIC)
    assert chart_svg(make()) == svg  # no date, no random ids
    assert chart_png(make()) == png
    assert b"<script" not in svg and b'href="http' not in svg


def test_the_axes_say_what_they_show():
    texts = svg_texts(chart_svg(outcomes_chart()))
    money = svg_texts(chart_svg(daily_handle_chart()))
    percent = svg_texts(chart_svg(daily_hold_chart()))

    assert {"Number", "Rounds", "Expected (1/13 of rounds)", "Range 102.1 to 145.1"} <= set(texts)
    assert [str(number) for number in range(13)] == [t for t in texts if t.isdigit()][:13]
    assert "Handle (dollars)" in money and "$2,500" in money  # 250,000 cents
    assert "4.00%" in percent and {"Actual", "Expected"} <= set(percent)
    big = outcomes_chart() | {"values": [1_250_000 + n for n in range(13)], "reference": None}
    assert "1,200,000" in svg_texts(chart_svg(big))  # whole numbers, never 1.2e+06


def test_a_year_of_days_is_labelled_every_few_days_not_every_day():
    texts = svg_texts(chart_svg(daily_hold_chart()))

    dates = [text for text in texts if text in DAYS]
    assert dates[0] == "2026-01-01"
    assert 8 <= len(dates) <= 16  # readable, side by side, not 365 on top of each other


def test_a_chart_without_values_says_no_activity():
    nothing = daily_hold_chart(days=[])
    all_null = daily_hold_chart() | {"values": [None] * 365}

    no_rounds = outcomes_chart() | {"values": [0] * 13}  # zero-height bars: an empty frame
    for chart in (nothing, all_null, no_rounds, outcomes_chart() | {"labels": [], "values": []}):
        assert NO_ACTIVITY in svg_texts(chart_svg(chart))
        assert chart_png(chart).startswith(PNG_MAGIC)


def test_text_is_drawn_as_written_never_as_tex():
    chart = outcomes_chart() | {"title": "$x$", "y_title": "Win $ (dollars) $5"}

    assert "Win $ (dollars) $5" in svg_texts(chart_svg(chart))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"type": "pie"}, "unknown type 'pie'"),
        ({"values": [1, 2, 3]}, "values has 3 entries, labels 13"),
        ({"labels": ["a"] * 12}, "values has 13 entries, labels 12"),
        ({"key": "no spaces/please"}, "letters, digits"),
        ({"values": [1.5] + [1] * 12, "money": True}, "whole number of cents"),
        ({"values": ["12"] + [1] * 12}, "not a number"),
        ({"values": [True] + [1] * 12}, "not a number"),
        ({"values": [float("nan")] + [1] * 12}, "not a number"),
        ({"reference": {"label": "E", "value": 1, "low": 0}}, "both low and high"),
        ({"reference": {"label": "E", "value": 1, "low": 2, "high": 1}}, "low is above"),
        ({"colour": "red"}, "unknown field(s) colour"),
        ({"money": True, "percent": True}, "exclude each other"),
        ({"labels": list(range(13))}, "labels must be a list of text"),
    ],
)
def test_a_bad_spec_is_refused_saying_why(change, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        chart_svg(outcomes_chart() | change)


def test_a_band_needs_its_band_one_value_per_label():
    band = daily_hold_chart()
    del band["low"]
    with pytest.raises(ValueError, match="missing low"):
        validate_chart(band)
    with pytest.raises(ValueError, match="high has 364 entries, labels 365"):
        validate_chart(daily_hold_chart() | {"high": [0.05] * 364})
    with pytest.raises(ValueError, match="above its high"):
        validate_chart(daily_hold_chart() | {"low": [0.1] * 365})


def forecast_chart():
    """A PAR sheet's hold to expect: the expectation and its band alone, no actual values."""
    rounds = ["1,000", "10,000", "100,000", "1,000,000"]
    return {
        "key": "hold-forecast",
        "title": "Hold to expect",
        "type": "band",
        "forecast": True,
        "percent": True,
        "x_title": "Rounds of the betting mix",
        "y_title": "Hold",
        "labels": rounds,
        "values": [None] * 4,
        "expected": [0.0429] * 4,
        "low": [0.0339, 0.0400, 0.0420, 0.0426],
        "high": [0.0519, 0.0458, 0.0438, 0.0432],
    }


def test_a_forecast_draws_its_expectation_and_band_without_an_actual_line():
    texts = svg_texts(chart_svg(forecast_chart()))

    assert {"Expected", "Expected range (low to high)", "1,000,000"} <= set(texts)
    assert "Actual" not in texts and NO_ACTIVITY not in texts
    assert chart_svg(forecast_chart()) == chart_svg(forecast_chart())
    with pytest.raises(ValueError, match="a forecast has no values of its own"):
        validate_chart(forecast_chart() | {"values": [0.04] * 4})
    assert NO_ACTIVITY in svg_texts(
        chart_svg(
            forecast_chart() | dict.fromkeys(("labels", "values", "expected", "low", "high"), [])
        )
    )


def test_a_document_charts_keys_are_unique():
    assert document_charts({"sections": []}) == []
    with pytest.raises(ValueError, match="repeated: outcomes"):
        document_charts({"charts": [outcomes_chart(), outcomes_chart()]})
    with pytest.raises(ValueError, match="a list"):
        document_charts({"charts": {"outcomes": outcomes_chart()}})


def test_threads_draw_side_by_side_without_mixing_charts():
    expected = {make.__name__: chart_svg(make()) for make in CHARTS}

    with ThreadPoolExecutor(max_workers=6) as pool:
        drawn = list(pool.map(lambda make: (make.__name__, chart_svg(make())), CHARTS * 4))

    assert all(svg == expected[name] for name, svg in drawn)


def test_matplotlib_keeps_its_cache_in_the_var_folder_when_home_is_not_writable(tmp_path):
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("MPLCONFIGDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")
    }
    environment |= {"HOME": "/proc/no-home", "JINZI_VAR_DIR": str(tmp_path)}
    program = (
        "import django; django.setup();"
        "from portal.reports.render.chart_drawing import chart_png, matplotlib;"
        "chart_png({'key': 'k', 'title': 't', 'type': 'bars', 'x_title': 'x', 'y_title': 'y',"
        " 'labels': ['a'], 'values': [1]});"
        "print(matplotlib.get_cachedir())"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        env=environment | {"DJANGO_SETTINGS_MODULE": "portal.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "matplotlib")
    assert "temporary cache directory" not in done.stderr


# --- PDF ----------------------------------------------------------------------------------


def test_the_pdf_opens_on_its_figures_and_draws_each_chart_after_them_with_its_title():
    document = make_document() | {"charts": [outcomes_chart(), daily_hold_chart()]}

    data = written(render.write_pdf, document, compress=False)

    assert data.count(b"/Subtype /Image") == 2
    header, figures = data.index(b"(Filters)"), data.index(b"(Holder 2)")
    charts = data.index(b"(Outcome frequency)")
    assert header < figures < charts < data.index(b"(Daily hold % against the expected band)")
    assert written(render.write_pdf, document, compress=False) == data  # still byte-stable


def test_a_pdf_without_charts_has_no_image():
    plain = written(render.write_pdf, make_document(), compress=False)

    assert b"/Subtype /Image" not in plain
    assert written(render.write_pdf, make_document() | {"charts": []}, compress=False) == plain


def test_a_bad_chart_fails_the_pdf_not_silently():
    document = make_document() | {"charts": [outcomes_chart() | {"type": "pie"}]}

    with pytest.raises(ValueError, match="unknown type"):
        written(render.write_pdf, document)


# --- The run's page -----------------------------------------------------------------------


@pytest.fixture
def reports_folder(tmp_path, settings):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    return settings.JINZI_REPORTS_DIR


@pytest.fixture
def charted_run(db, reports_folder, auditor, holder_a, monkeypatch):
    """A finished expiry run about holder A whose document carries two charts, built by
    the worker's own code (only the definition's build is wrapped to add them)."""
    real = definitions.definition

    def with_charts(kind):
        report = real(kind)

        def build(parameters, progress, *fixed):
            return report.build(parameters, progress, *fixed) | {
                "charts": [outcomes_chart(), daily_hold_chart(DAYS[:30])]
            }

        return dataclasses.replace(report, build=build)

    monkeypatch.setattr(definitions, "definition", with_charts)
    monkeypatch.setattr(runs, "_enqueue", lambda run: None)
    run = runs.report_run_request(
        actor=auditor, kind="expiry", parameters={"holder": holder_a.pk}, via="api"
    )[0]
    runs.report_run_execute(run_id=run.pk)
    run.refresh_from_db()
    assert run.status == "succeeded"
    return run


def test_the_run_page_shows_each_chart_as_an_svg_image(client, auditor, charted_run):
    client.force_login(auditor)
    pk = charted_run.pk

    page = client.get(f"/reports/{pk}/").content.decode()
    polled = client.get(f"/reports/{pk}/", headers={"HX-Request": "true"}).content.decode()
    answer = client.get(f"/reports/{pk}/charts/outcomes.svg")

    assert f'src="/reports/{pk}/charts/outcomes.svg" alt="Outcome frequency"' in page
    assert f'src="/reports/{pk}/charts/daily_hold.svg"' in page
    assert 'alt="Daily hold % against the expected band"' in page
    assert "<img" not in polled
    assert answer.status_code == 200
    assert answer["Content-Type"] == "image/svg+xml"
    assert answer["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'"
    assert answer["X-Content-Type-Options"] == "nosniff"
    assert answer.content == chart_svg(outcomes_chart())


def test_a_chart_is_served_only_to_those_who_may_see_the_run(
    client, charted_run, manager_a, manager_b, player
):
    url = f"/reports/{charted_run.pk}/charts/outcomes.svg"
    codes = {}
    for user in (manager_a, manager_b, player):
        client.force_login(user)
        codes[user.username] = client.get(url).status_code
    client.logout()

    assert codes == {"manager_a": 200, "manager_b": 404, "player": 403}
    assert client.get(url).status_code == 302  # to sign in


def test_an_unknown_chart_or_a_run_without_its_json_file_is_404(client, auditor, charted_run):
    client.force_login(auditor)
    pk = charted_run.pk

    assert client.get(f"/reports/{pk}/charts/nothing.svg").status_code == 404
    ReportFile.objects.filter(run=charted_run, format="json").delete()
    assert client.get(f"/reports/{pk}/charts/outcomes.svg").status_code == 404
    assert "<img" not in client.get(f"/reports/{pk}/").content.decode()


def test_a_run_whose_report_has_no_charts_shows_none(client, auditor, reports_folder, monkeypatch):
    monkeypatch.setattr(runs, "_enqueue", lambda run: None)
    run = runs.report_run_request(actor=auditor, kind="expiry", parameters={}, via="api")[0]
    runs.report_run_execute(run_id=run.pk)
    client.force_login(auditor)

    assert 'id="charts-title"' not in client.get(f"/reports/{run.pk}/").content.decode()
    assert client.get(f"/reports/{run.pk}/charts/outcomes.svg").status_code == 404
