"""What every app's REST API shares: sign-in, the error format, parsers, fields, the policy
gate and base viewset, and the one router (``urls``). Each app's viewsets live in its own
``api`` module; nothing app-specific belongs here."""
