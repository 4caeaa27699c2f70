"""Pennsylvania dates (reading:pennsylvania-dates): instants in UTC, regulatory dates and
gaming days in America/New_York, in both daylight-saving seasons."""

import datetime

import pytest

from portal.core.padates import (
    day_starts,
    gaming_day,
    gaming_day_span,
    pa_date,
    pa_stamp,
    rule_in_force,
)

UTC = datetime.UTC


def utc(*parts) -> datetime.datetime:
    return datetime.datetime(*parts, tzinfo=UTC)


@pytest.mark.parametrize(
    ("instant", "date"),
    [
        (utc(2028, 6, 14, 3, 59, 59), datetime.date(2028, 6, 13)),  # 23:59:59 EDT
        (utc(2028, 6, 14, 4, 0, 0), datetime.date(2028, 6, 14)),  # 00:00 EDT
        (utc(2027, 1, 15, 4, 59, 59), datetime.date(2027, 1, 14)),  # 23:59:59 EST
        (utc(2027, 1, 15, 5, 0, 0), datetime.date(2027, 1, 15)),  # 00:00 EST
    ],
)
@pytest.mark.clause("reading:pennsylvania-dates", kind="proves")
def test_2a_a_pennsylvania_date_turns_at_local_midnight_in_both_seasons(instant, date):
    assert pa_date(instant) == date


@pytest.mark.clause("reading:pennsylvania-dates", kind="proves")
def test_2a_the_rule_is_in_force_from_local_midnight_to_local_midnight():
    assert not rule_in_force(utc(2025, 6, 14, 3, 59))  # 2025-06-13 23:59 EDT
    assert rule_in_force(utc(2025, 6, 14, 4, 0))
    assert rule_in_force(utc(2028, 6, 14, 3, 59, 59))  # 2028-06-13 23:59:59 EDT
    assert not rule_in_force(utc(2028, 6, 14, 4, 0))


def test_2a_a_day_starts_at_its_local_hour_even_on_the_days_the_clocks_change():
    assert day_starts(datetime.date(2026, 3, 8)) == utc(2026, 3, 8, 5)  # still EST at 00:00
    assert day_starts(datetime.date(2026, 3, 8), 6) == utc(2026, 3, 8, 10)  # EDT by 06:00
    assert day_starts(datetime.date(2026, 11, 1), 6) == utc(2026, 11, 1, 11)  # EST by 06:00
    # 02:00 does not exist on 2026-03-08: the day starts at the first instant after the gap.
    assert day_starts(datetime.date(2026, 3, 8), 2) == utc(2026, 3, 8, 7)


@pytest.mark.clause("reading:gaming-day", kind="proves")
def test_2a_a_gaming_day_from_0600_spans_23_hours_in_spring_and_25_in_autumn():
    start, end = gaming_day_span(datetime.date(2026, 3, 7), 6)
    assert (start, end) == (utc(2026, 3, 7, 11), utc(2026, 3, 8, 10))
    assert end - start == datetime.timedelta(hours=23)
    start, end = gaming_day_span(datetime.date(2026, 10, 31), 6)
    assert end - start == datetime.timedelta(hours=25)


@pytest.mark.parametrize(
    ("instant", "day"),
    [
        (utc(2026, 3, 8, 9, 59, 59), datetime.date(2026, 3, 7)),  # 05:59:59 EDT
        (utc(2026, 3, 8, 10, 0, 0), datetime.date(2026, 3, 8)),  # 06:00 EDT
        (utc(2026, 11, 1, 10, 59, 59), datetime.date(2026, 10, 31)),  # 05:59:59 EST
        (utc(2026, 11, 1, 11, 0, 0), datetime.date(2026, 11, 1)),  # 06:00 EST
    ],
)
@pytest.mark.clause("reading:gaming-day", kind="proves")
def test_2a_a_gaming_day_that_starts_at_0600_across_a_dst_change(instant, day):
    assert gaming_day(instant, 6) == day


@pytest.mark.clause("reading:gaming-day", kind="proves")
def test_2a_by_default_the_gaming_day_is_the_pennsylvania_date():
    assert gaming_day(utc(2026, 11, 30, 4, 59)) == datetime.date(2026, 11, 29)
    assert gaming_day(utc(2026, 11, 30, 5, 0)) == datetime.date(2026, 11, 30)


@pytest.mark.parametrize(
    ("instant", "minutes", "seconds"),
    [
        (utc(2026, 7, 1, 16, 0, 5, 123456), "2026-07-01 12:00 EDT", "2026-07-01 12:00:05 EDT"),
        (utc(2026, 11, 30, 15, 26, 59), "2026-11-30 10:26 EST", "2026-11-30 10:26:59 EST"),
    ],
)
def test_an_instant_reads_in_pennsylvania_time_with_its_zone(instant, minutes, seconds):
    assert pa_stamp(instant) == minutes
    assert pa_stamp(instant, seconds=True) == seconds
