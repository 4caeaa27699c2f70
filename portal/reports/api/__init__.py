"""The reports' REST API (``/api/reports/``). Its routes (``urls``) are mounted under /api/
by the site's URLconf."""
