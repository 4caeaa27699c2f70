"""The compliance records' REST API: layouts, paytables, rules submissions, offerings.

Their routes are registered with every other app's in ``portal.api.urls``.
"""
