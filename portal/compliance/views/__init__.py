"""Portal pages for compliance records, offerings and the dashboard.

Each page is a short function: fetch through ``portal.access.pages.visible_or_404``
(another holder's record is a 404), ask ``policy`` what the user may do, call a service on
POST, and show its ``DomainError`` as the page or the form error it maps to.
"""
