"""The checks of the audit report's pass that need every round of the period seen: the
rounds whose previous round the pass did not see are linked to the stored rounds
(``check_links``), each player's last round to their next stored round or their wallet's
chain head (``check_heads``). ``finish`` makes them once a pass is whole; ``joined`` joins
the parts of a period made apart, then finishes them, exactly as a single pass is.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from portal.core.hashing import GENESIS_HASH
from portal.game.models import Round, Wallet
from portal.reports.audit_report.resettlement.findings import Pass

LINKS_BATCH = 1_000  # chain links looked up in the database at a time


def joined(parts: Iterable[Pass]) -> Pass:
    """The parts of a period joined into one pass, then finished: the links and chain heads
    at the parts' edges are checked against each other, the rest against the stored rounds,
    exactly as a single pass checks them."""
    found = Pass()
    for one in parts:
        found.join(one)
    finish(found)
    return found


def finish(found: Pass) -> None:
    """The checks that need every round of the period seen: each first link whose previous
    round some part saw is compared with it; the others, and each player's last round, are
    checked against the stored rounds and wallets."""
    links, found.first_links = found.first_links, []
    for round_id, player, sequence, prev in links:
        before = found.ends.get((player, sequence - 1)) if sequence > 1 else None
        if before is None:
            found.first_links.append((round_id, player, sequence, prev))
            if len(found.first_links) >= LINKS_BATCH:
                check_links(found)
        elif before != prev:
            found.chain_problem(
                round_id, player, "its prev_hash does not match the player's previous round"
            )
    check_links(found)
    found.ends = {}
    found.part = False
    check_heads(found)


def check_links(found: Pass) -> None:
    """Each round whose previous round the pass did not see links to the player's stored
    round before it (or, as a first round, to the genesis hash): a deleted round shows.
    Checked and forgotten a batch at a time, so memory stays flat."""
    links, found.first_links = found.first_links, []
    wanted = [prev for _, _, sequence, prev in links if sequence > 1]
    before = {
        hash_: (player, sequence)
        for hash_, player, sequence in Round.objects.filter(hash__in=wanted).values_list(
            "hash", "player_id", "sequence"
        )
    }
    for round_id, player, sequence, prev in links:
        if sequence == 1:
            if prev != GENESIS_HASH:
                found.chain_problem(round_id, player, "a first round not linked to the genesis")
        elif before.get(prev) != (player, sequence - 1):
            found.chain_problem(
                round_id, player, "its prev_hash is not the hash of the player's round before"
            )


def check_heads(found: Pass) -> None:
    """Each player's last round of the period is followed by their next stored round (which
    must link to it), or is the last round their wallet records: a deleted or altered
    latest round shows, as ``verify_round_chain`` finds it."""
    heads = sorted(found.heads.items())
    for start in range(0, len(heads), LINKS_BATCH):
        batch = heads[start : start + LINKS_BATCH]
        following = Q()
        for player, (sequence, _) in batch:
            following |= Q(player_id=player, sequence=sequence + 1)
        after = {
            player: prev
            for player, prev in Round.objects.filter(following).values_list(
                "player_id", "prev_hash"
            )
        }
        wallets = dict(
            (player, (played, head))
            for player, played, head in Wallet.objects.filter(
                player_id__in=[player for player, _ in batch]
            ).values_list("player_id", "rounds_played", "chain_head")
        )
        for player, (sequence, hash_) in batch:
            if player in after:
                if after[player] != hash_:
                    found.chain_problem(
                        None, player, f"round {sequence + 1} does not link to round {sequence}"
                    )
            elif wallets.get(player) != (sequence, hash_):
                found.chain_problem(
                    None,
                    player,
                    f"the wallet's chain ends elsewhere than round {sequence}: a later round "
                    "is missing",
                )
