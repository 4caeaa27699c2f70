from django.core.management.base import BaseCommand, CommandError

from portal.game.chain import verify_ledgers, verify_rounds
from portal.game.models import LedgerEntry, Round, Wallet


class Command(BaseCommand):
    help = (
        "Walk every player's chain of rounds (§ 810a.11) and check every wallet against its "
        "ledger; exit non-zero at the first break."
    )

    def handle(self, *args, **options):
        rounds = (
            Round.objects.order_by("player_id", "sequence")
            .prefetch_related("bets")
            .iterator(chunk_size=1000)
        )
        heads = {
            player: (played, head)
            for player, played, head in Wallet.objects.values_list(
                "player_id", "rounds_played", "chain_head"
            )
        }
        report = verify_rounds(rounds, heads)
        if not report.ok:
            where = f"round {report.broken_round_id}" if report.broken_round_id > 0 else "a wallet"
            raise CommandError(f"round chain broken at {where}: {report.problem}")
        ledger = verify_ledgers(
            Wallet.objects.values_list("pk", "balance"),
            LedgerEntry.objects.order_by("wallet_id", "pk")
            .values_list("wallet_id", "kind", "amount", "balance_after", "round_id")
            .iterator(chunk_size=5000),
            {
                pk: (before, staked, after)
                for pk, before, staked, after in Round.objects.values_list(
                    "pk", "balance_before", "total_staked", "balance_after"
                ).iterator(chunk_size=5000)
            },
        )
        if not ledger.ok:
            raise CommandError(f"wallet ledger broken: {ledger.problem}")
        self.stdout.write(
            f"round chains intact: {report.checked} rounds verified; "
            f"{ledger.checked} ledger entries add up"
        )
