"""Who may do what: the roles a user holds, the holder they act for, and the policy.

It reads the user's groups and profile through Django's user model by field name, so it
imports no app: every app, and the interfaces of the lowest ones, can ask it. Beside the
policy: the generic parts of a workflow declared once (``workflow``: a step, a table of
steps, its guards) and four-eyes (``four_eyes``: whatever one person wrote, another decides).
"""
