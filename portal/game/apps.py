from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "portal.game"
    label = "game"
    verbose_name = "Jinzi Roulette game"

    def ready(self) -> None:
        from portal.core.waiting import add_counter
        from portal.game import audit_labels
        from portal.game.complaints.selectors import complaints_waiting
        from portal.game.complaints.services import correction_decided
        from portal.game.corrections.selectors import corrections_waiting
        from portal.game.corrections.services import when_complaint_settled
        from portal.game.sessions import api_guard, signals

        signals.connect()
        # A player's API token works only inside an API session that runs (§ 812a.3(a)(6)).
        api_guard.connect()
        # The dashboard counts the voids and adjustments waiting for a person's decision.
        add_counter(corrections_waiting)
        add_counter(complaints_waiting)
        # An adjustment settling an upheld dispute, once decided, closes or reopens it.
        when_complaint_settled(correction_decided)
        # What the audit trail calls this app's actions and fields.
        audit_labels.register()
