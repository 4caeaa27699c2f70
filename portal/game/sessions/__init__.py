"""Player sessions (§ 812a.9(a)(4)-(5), § 812a.3(a)(5)-(6)): every way of playing, pages and
API alike, runs inside one, and each round records its id.

- ``lifecycle``: a session's start, activity, end; 15 minutes without activity end it at its
  last activity; the time a daily time limit counts (reading:time-limit-sessions).
- ``signals``: sign-in and sign-out on the pages start and end one.
- ``middleware``: a page request ends an idle session (a player's after 15 minutes, staff's
  after their own configurable time) and moves the last activity at most once a minute.
- ``notice``: the notice of time and money since sign-in that the next round waits on
  (§ 814a.1, reading:play-notice), and the player's choices about their sessions.
- ``api_guard``: a player's API token works only inside a running API session.

Their API (``POST /api/sessions/`` and the rest) is ``portal.game.api.sessions``.
"""
