from portal.audit.retention_commands import ArchiveExportCommand
from portal.game.retention import export_to


class Command(ArchiveExportCommand):
    help = (
        "Export every round with its bets, every wallet and holder account with its ledger, "
        "every deposit and withdrawal to a file that verifies on its own (§ 811a.7, "
        "§ 810a.11, § 812a.7, § 812a.10); `verify_round_chain --from-export FILE` checks it."
    )
    records = "game records"

    def export(self, output):
        counts = export_to(output)
        return (
            f"exported {counts['round']} rounds ({counts['bet']} bets), {counts['wallet']} "
            f"wallets, {counts['account']} accounts, {counts['entry']} ledger entries, "
            f"{counts['deposit']} deposits and {counts['withdrawal']} withdrawals to {output}"
        )
