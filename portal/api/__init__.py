"""What every app's REST API shares: the error format, parsers, fields, the policy gate and
base viewsets, exports, the schema, and the one router (``routers``) the site's URLconf
registers every app's routes on. Each app's viewsets live in its own ``api`` package, as
does the sign-in they use (the accounts' bearer tokens); nothing app-specific belongs here."""
