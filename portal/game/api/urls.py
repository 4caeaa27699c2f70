"""The game API's routes under /api/ (registered on the one router by ``portal.urls``)."""

from portal.api.routers import Route
from portal.game.api.accounts import AccountViewSet, WithdrawalViewSet
from portal.game.api.corrections import CorrectionViewSet
from portal.game.api.views import RoundViewSet, WalletViewSet

routes = [
    Route("rounds", RoundViewSet, "round"),
    Route("wallet", WalletViewSet, "wallet"),
    Route("accounts", AccountViewSet, "account"),
    Route("withdrawals", WithdrawalViewSet, "withdrawal"),
    Route("corrections", CorrectionViewSet, "correction"),
]
