from django.core.management.base import BaseCommand, CommandError

from portal.game.chain import verify_rounds
from portal.game.models import Round, Wallet


class Command(BaseCommand):
    help = "Walk every player's chain of rounds (§ 810a.11); exit non-zero at the first break."

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
        self.stdout.write(f"round chains intact: {report.checked} rounds verified")
