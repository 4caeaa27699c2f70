"""The game API's routes under /api/ (registered on the one router by ``portal.urls``), from
its three parts: play (rounds), the player's money (the wallet, accounts, withdrawals) and
the voids and adjustments of rounds."""

from portal.api.routers import Route
from portal.game.api.sessions import SessionViewSet
from portal.game.complaints.api import ComplaintViewSet
from portal.game.corrections.api import CorrectionViewSet
from portal.game.money.api.accounts import AccountViewSet
from portal.game.money.api.wallet import WalletViewSet
from portal.game.money.api.withdrawals import WithdrawalViewSet
from portal.game.play.api import RoundViewSet

routes = [
    Route("rounds", RoundViewSet, "round"),
    Route("wallet", WalletViewSet, "wallet"),
    Route("accounts", AccountViewSet, "account"),
    Route("withdrawals", WithdrawalViewSet, "withdrawal"),
    Route("corrections", CorrectionViewSet, "correction"),
    Route("sessions", SessionViewSet, "session"),
    Route("complaints", ComplaintViewSet, "complaint"),
]
