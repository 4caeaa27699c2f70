"""The game's REST API: rounds and the wallet. Its routes (``urls``) are mounted under
/api/ by the site's URLconf."""
