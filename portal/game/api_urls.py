from rest_framework.routers import SimpleRouter

from portal.game.api import RoundViewSet, WalletViewSet

router = SimpleRouter()
router.register("rounds", RoundViewSet, basename="round")
router.register("wallet", WalletViewSet, basename="wallet")

urlpatterns = router.urls
