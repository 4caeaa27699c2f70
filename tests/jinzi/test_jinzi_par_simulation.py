"""The PAR sheet against a seeded simulation, settled through ``jinzi.columns`` (what the
audit report re-settles with): every probability and return within 4 standard errors, and
the 1,000-round band holding 95 % ± 2 % of 1,000 simulated periods."""

from __future__ import annotations

import math

import numpy as np

from jinzi import SettlementTable, Stakes
from jinzi.columns import BlockTables
from jinzi.par import default_mix, hold_forecast, par_lines
from jinzi.paytable import MINIMUM_PAYTABLE, Paytable
from jinzi.wagers import LEGAL_WAGERS

SEED = 20261205
SPINS = 200_000
PERIODS, ROUNDS = 1_000, 1_000
# A generous paytable, so that round-up and a split's two pays are simulated too.
GENEROUS = Paytable.from_dict({**MINIMUM_PAYTABLE.as_dict(), "split": "16/3", "red": "11/10"})


def _returns(paytable: Paytable, stake: int) -> np.ndarray:
    """[outcome, spot]: what ``stake`` on each spot returns on each outcome, as paid."""
    tables = BlockTables([SettlementTable.for_(paytable)])
    outcome, spot = np.meshgrid(np.arange(13), np.arange(len(LEGAL_WAGERS)), indexing="ij")
    zeros = np.zeros(outcome.size, dtype=np.int64)
    stakes = np.full(outcome.size, stake, dtype=np.int64)
    paid = tables.returns(zeros, outcome.ravel(), spot.ravel(), stakes)
    return paid.reshape(13, len(LEGAL_WAGERS))


def test_every_line_of_the_sheet_is_within_4_standard_errors_of_a_simulation():
    rng = np.random.default_rng(SEED)
    for paytable in (MINIMUM_PAYTABLE, GENEROUS):
        stake = 2
        lines = par_lines(paytable, stakes=Stakes(unit=stake, highest=stake))
        paid = _returns(paytable, stake)
        outcomes = rng.integers(0, 13, SPINS)
        for line in lines:
            index = next(
                i
                for i, w in enumerate(LEGAL_WAGERS)
                if w.kind is line.kind and w.covers_zero is line.covers_zero
            )
            returned = paid[outcomes, index]
            for share, p in (
                (np.mean(returned > stake), line.win),
                (np.mean(returned == stake // 2), line.half_back),
                (np.mean(returned == 0), line.loss),
            ):
                p = float(p)
                assert abs(share - p) <= 4 * math.sqrt(p * (1 - p) / SPINS) + 1e-12, line
            per_unit = returned / stake
            rtp = float(line.return_to_player[0])  # one stake: lowest and highest agree
            assert line.return_to_player[0] == line.return_to_player[1]
            se = per_unit.std() / math.sqrt(SPINS)
            assert abs(per_unit.mean() - rtp) <= 4 * se, line
            if paytable is MINIMUM_PAYTABLE:  # paid exactly: the sheet's SD is the paid one
                # The standard error of a standard deviation, from the sample's 4th moment.
                m2, m4 = per_unit.var(), np.mean((per_unit - per_unit.mean()) ** 4)
                se_sd = math.sqrt((m4 - m2 * m2) / SPINS) / (2 * math.sqrt(m2))
                assert abs(per_unit.std() - float(line.standard_deviation)) <= 4 * se_sd, line


def test_the_1000_round_band_holds_95_percent_of_simulated_periods():
    mix = default_mix()
    [forecast] = hold_forecast(mix, paytable=MINIMUM_PAYTABLE, periods=(ROUNDS,))
    low, high = (float(edge) for edge in forecast.band)
    per_outcome = _returns(MINIMUM_PAYTABLE, 2).sum(axis=1)  # the mix's return per outcome
    staked = 2 * len(LEGAL_WAGERS)
    outcomes = np.random.default_rng(SEED).integers(0, 13, (PERIODS, ROUNDS))
    holds = (ROUNDS * staked - per_outcome[outcomes].sum(axis=1)) / (ROUNDS * staked)

    inside = np.mean((holds >= low) & (holds <= high))
    assert 0.93 <= inside <= 0.97, inside
    # And the simulated mean hold is the sheet's, within 4 standard errors.
    sd = (high - low) / (2 * 1.96)
    assert abs(holds.mean() - float(forecast.expected_hold)) <= 4 * sd / math.sqrt(PERIODS)
