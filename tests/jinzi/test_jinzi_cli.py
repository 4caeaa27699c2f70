"""``python -m jinzi`` run as a user would, in a subprocess."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import jinzi

ROOT = Path(jinzi.__file__).resolve().parent.parent
MINIMUM = {
    "straight": 11, "split": 5, "street": 3, "corner": 2, "three_numbers": 3,
    "column": 2, "red": 1, "black": 1, "small": 1, "big": 1,
}  # fmt: skip


def run(*args, stdin=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NO_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "jinzi", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env=env,
        cwd=ROOT,
        timeout=60,
    )


def assert_refused(result, message):
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_layout_prints_zero_above_the_grid_with_colours_and_no_ansi_when_piped():
    result = run("layout")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert "|       0W        |" in lines
    assert "|  1R |  2B |  3R |" in lines
    assert "| 10R | 11B | 12R |" in lines
    assert "\x1b[" not in result.stdout


def test_layout_follows_the_wheel_given():
    result = run("layout", "--order", "0,1,2,3,4,5,6,7,8,9,10,11,12")
    assert "|  1R |  2B |  3R |" in result.stdout.splitlines()
    assert "|  4B |  5R |  6B |" in result.stdout.splitlines()


def test_617b8_c_wheel_prints_the_order_and_colours():
    result = run("wheel")
    assert result.returncode == 0
    assert "red:   1, 3, 5, 8, 10, 12" in result.stdout
    assert "black: 2, 4, 6, 7, 9, 11" in result.stdout


def test_617b8_c_wheel_and_layout_take_a_black_first_colour():
    wheel = run("wheel", "--first", "black")
    assert wheel.returncode == 0
    assert "First after 0: black" in wheel.stdout
    assert "red:   2, 4, 6, 7, 9, 11" in wheel.stdout
    assert "black: 1, 3, 5, 8, 10, 12" in wheel.stdout
    layout = run("layout", "--first", "black")
    assert "|  1B |  2R |  3B |" in layout.stdout.splitlines()


def test_617b8_c_a_first_colour_other_than_red_or_black_is_refused_with_exit_2():
    assert_refused(
        run("wheel", "--first", "green"),
        "§ 617b.8(c): the first compartment after 0 must be 'red' or 'black'",
    )


def test_617b8_c_a_bad_wheel_is_refused_with_exit_2():
    assert_refused(
        run("wheel", "--order", "0,1,2"),
        "§ 617b.8(c): the wheel needs exactly 13 compartments, got 3",
    )
    assert_refused(run("layout", "--order", "0,1,2,x"), "§ 617b.8(c): cannot read wheel order")


def test_617b8_d_wagers_lists_the_52_legal_spots():
    result = run("wagers")
    assert result.returncode == 0
    assert "split:0-1" in result.stdout
    assert "52 legal spots" in result.stdout
    assert sum(1 for line in result.stdout.splitlines() if line.endswith(" to 1")) == 52


def test_617b8_g_2_settle_returns_half_of_straight_up_on_ten_when_zero_comes_up():
    result = run("settle", "straight", "10", "--stake", "1000", "--outcome", "0")
    assert result.returncode == 0
    assert "returned  500" in result.stdout.splitlines()
    assert "half back" in result.stdout


def test_settle_accepts_a_spot_id_and_a_paytable_file(tmp_path):
    path = tmp_path / "paytable.json"
    path.write_text(json.dumps({**MINIMUM, "split": "11/2"}), encoding="utf-8")
    result = run(
        "settle", "split:1-2", "--stake", "1000", "--outcome", "2", "--paytable", str(path)
    )
    assert result.returncode == 0
    assert "returned  6500" in result.stdout.splitlines()
    assert "win, paid 11 to 2" in result.stdout


def test_617b8_d_settle_refuses_an_illegal_wager():
    assert_refused(
        run("settle", "split", "1", "5", "--stake", "10", "--outcome", "1"),
        "§ 617b.8(d): split 1-5: numbers are not next to each other on the layout",
    )
    assert_refused(
        run("settle", "foo", "--stake", "10", "--outcome", "1"), "unknown wager kind 'foo'"
    )
    assert_refused(
        run("settle", "straight", "-1", "--stake", "10", "--outcome", "1"),
        "number -1 is outside 0–12",
    )


@pytest.mark.clause("617b.8(g)", kind="cites-in-message")
def test_617b8_c_and_g_settle_refuses_bad_stakes_and_outcomes():
    assert_refused(
        run("settle", "red", "--stake", "3", "--outcome", "1"),
        "§ 617b.8(g): stake must be a positive even integer number of minor units, got 3",
    )
    assert_refused(
        run("settle", "red", "--stake", "10.5", "--outcome", "1"),
        "stake must be a positive even integer number of minor units, got '10.5' (str)",
    )
    assert_refused(
        run("settle", "red", "--stake", "10", "--outcome", "13"),
        "§ 617b.8(c): outcome must be a wheel number 0–12, got 13",
    )


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_edge_prints_the_exact_table_for_the_minimum_paytable():
    result = run("edge")
    assert result.returncode == 0
    assert "1/26 = 3.846 %" in result.stdout
    assert "1/13 = 7.692 %" in result.stdout
    lines = result.stdout.splitlines()
    assert "  wagers not covering 0  1/26 = 3.846 %" in lines
    assert "  wagers covering 0      1/13 = 7.692 %" in lines
    assert "29/676" not in result.stdout  # no mean over the 52 spots (reading:expected-win)
    assert "WARNING" not in result.stdout


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_edge_reads_a_paytable_from_stdin_and_warns_when_a_spot_has_no_edge():
    result = run("edge", "--paytable", "-", stdin=json.dumps({**MINIMUM, "straight": 12}))
    assert result.returncode == 0
    assert "WARNING: Straight up 0 has a house edge of 0.000 %" in result.stdout
    lines = result.stdout.splitlines()
    assert "  wagers not covering 0  -1/26 = -3.846 % to 1/26 = 3.846 %" in lines
    assert "  wagers covering 0      0 = 0.000 % to 1/13 = 7.692 %" in lines


def test_reading_round_up_edge_flags_a_straight_at_34_3_on_a_2_cent_stake():
    """A straight up on 1–12 at 34 to 3 keeps an edge of 1/39 by its odds, but 2 cents
    returns 2 × 37/3 = 24⅔, paid 25, and 1 back when 0 comes up: (25 + 1)/13 = 2, so the
    house keeps exactly nothing (reading:round-up). The straight on 0 gets no half back:
    25/13 < 2, an edge remains."""
    odds = {**MINIMUM, "straight": "34/3"}
    result = run("edge", "--paytable", "-", stdin=json.dumps(odds))
    assert result.returncode == 0
    warned = [line for line in result.stdout.splitlines() if line.startswith("WARNING")]
    assert len(warned) == 12  # straight up 1–12; the straight on 0 gets no half back
    assert warned[0].startswith(
        "WARNING: Straight up 1 has a house edge of 0.000 % on a stake of 2 minor units, "
        "its return rounded up"
    )


def test_617b8_f_edge_refuses_a_paytable_below_the_minimum(tmp_path):
    path = tmp_path / "low.json"
    path.write_text(json.dumps({**MINIMUM, "straight": 10}), encoding="utf-8")
    assert_refused(
        run("edge", "--paytable", str(path)),
        "§ 617b.8(f): Straight up pays 10 to 1, below the minimum 11 to 1",
    )


def test_edge_refuses_unreadable_paytables(tmp_path):
    assert_refused(
        run("edge", "--paytable", "-", stdin=json.dumps({**MINIMUM, "split": 5.5})),
        "odds for Split must be a whole number like 11",
    )
    assert_refused(run("edge", "--paytable", "-", stdin="{nope"), "is not valid JSON")
    assert_refused(
        run("edge", "--paytable", str(tmp_path / "missing.json")), "cannot read paytable file"
    )


def test_spin_draws_from_the_csprng_and_says_how():
    result = run("spin")
    assert result.returncode == 0
    assert "method    secrets.randbits(4)" in result.stdout
    outcome = int(result.stdout.split()[1])
    assert 0 <= outcome <= 12


def test_version():
    result = run("--version")
    assert result.stdout.strip() == "Jinzi Roulette 1.0.0"
