"""The audit trail's REST API (``/api/audit-events/``). Its routes (``urls``) are mounted
under /api/ by the site's URLconf."""
