"""The compliance records' REST API: layouts, paytables, rules submissions, offerings.

Their routes (``urls``) are mounted under /api/, with every other app's, by the site's URLconf.
"""
