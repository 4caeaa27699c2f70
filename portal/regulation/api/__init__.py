"""The clause matrix's REST API (``/api/regulation/``). Its routes (``urls``) are mounted
under /api/ by the site's URLconf."""
