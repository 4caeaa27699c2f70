from django.urls import path

from portal.game import account_views, correction_views, payments_views, views

app_name = "game"

urlpatterns = [
    path("", views.tables, name="tables"),
    path("<int:pk>/", views.table, name="table"),
    path("history/", views.history, name="history"),
    path("rounds/<int:pk>/", views.round_detail, name="round"),
    path("replay/", views.replay_last, name="replay-last"),
    path("rounds/<int:pk>/replay/", views.replay, name="replay"),
    path("rounds/", views.round_list, name="round-list"),
    path("verify/", views.verify_rounds, name="verify-rounds"),
    # Voids (§ 617a.6) and adjustments (§ 812a.7(a)(9)) of settled rounds: proposed on the
    # round's record, decided on their own page.
    path("corrections/", correction_views.queue, name="corrections"),
    path("corrections/<int:pk>/", correction_views.correction, name="correction"),
    # The player's accounts (Chapter 812a) and statements (§ 812a.11).
    path("account/", account_views.account, name="account"),
    path("account/<int:pk>/statement/", account_views.statement, name="statement"),
    # The holder's side: payments (§ 812a.10) and its players' accounts.
    path("payments/", payments_views.payments, name="payments"),
    path("payments/withdrawals/<int:pk>/", payments_views.withdrawal, name="withdrawal"),
    path("players/", payments_views.player_accounts, name="player-accounts"),
    path("players/<int:pk>/", payments_views.player_account, name="player-account"),
]
