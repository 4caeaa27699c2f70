"""The game's pages under /play/, by part: play (the tables, the player's games, every
round), the voids and adjustments of rounds, and the player's money (their accounts and
statements; the holder's payments and players' accounts)."""

from django.urls import path

from portal.game.complaints import views as complaints
from portal.game.corrections import views as corrections
from portal.game.money.views import account, payments, statements, terms
from portal.game.play import checks
from portal.game.play import views as play

app_name = "game"

urlpatterns = [
    path("", play.tables, name="tables"),
    path("<int:pk>/", play.table, name="table"),
    path("history/", play.history, name="history"),
    path("rounds/<int:pk>/", play.round_detail, name="round"),
    path("replay/", play.replay_last, name="replay-last"),
    path("rounds/<int:pk>/replay/", play.replay, name="replay"),
    path("rounds/", play.round_list, name="round-list"),
    path("verify/", play.verify_rounds, name="verify-rounds"),
    # Tables suspended while a suspected malfunction is checked (reading:table-suspension).
    path("checks/", checks.table_checks, name="table-checks"),
    # Voids (§ 617a.6) and adjustments (§ 812a.7(a)(9)) of settled rounds: proposed on the
    # round's record, decided on their own page.
    path("corrections/", corrections.queue, name="corrections"),
    path("corrections/<int:pk>/", corrections.correction, name="correction"),
    # Complaints and disputes, each with its number (reading:complaint-number).
    path("complaints/", complaints.complaints, name="complaints"),
    path("complaints/new/", complaints.file_complaint, name="complaint-new"),
    path("complaints/<int:pk>/", complaints.complaint, name="complaint"),
    # The player's accounts (Chapter 812a) and statements (§ 812a.11).
    path("account/", account.account, name="account"),
    path("account/<int:pk>/statement/", statements.statement, name="statement"),
    # A holder's terms and conditions, accepted before the first deposit or game (§ 812a.5).
    path("account/terms/<int:pk>/", terms.terms, name="terms"),
    # The holder's side: payments (§ 812a.10) and its players' accounts.
    path("payments/", payments.payments, name="payments"),
    path("payments/withdrawals/<int:pk>/", payments.withdrawal, name="withdrawal"),
    path("players/", payments.player_accounts, name="player-accounts"),
    path("players/<int:pk>/", payments.player_account, name="player-account"),
]
