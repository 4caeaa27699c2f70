"""The game's REST API: its routes (``urls``), mounted under /api/ by the site's URLconf.
Each part keeps its own viewsets, with their bodies beside them: ``portal.game.play.api``,
``portal.game.money.api`` and ``portal.game.corrections.api``."""
