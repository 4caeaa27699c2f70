"""The accounts' REST API: certificate holders, a user's own API tokens, and the bearer
token sign-in every API route accepts. Its routes (``urls``) are mounted under /api/ by the
site's URLconf."""
