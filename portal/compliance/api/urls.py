"""The compliance API's routes under /api/ (registered on the one router by ``portal.urls``)."""

from portal.api.routers import Route
from portal.compliance.api.availability import AvailabilityViewSet
from portal.compliance.api.layouts import LayoutViewSet
from portal.compliance.api.offerings import OfferingViewSet
from portal.compliance.api.paytables import PaytableViewSet
from portal.compliance.api.rules import RulesSubmissionViewSet
from portal.compliance.api.software import SoftwareApprovalViewSet
from portal.compliance.api.terms import TermsViewSet

routes = [
    Route("layouts", LayoutViewSet, "layout"),
    Route("paytables", PaytableViewSet, "paytable"),
    Route("rules-submissions", RulesSubmissionViewSet, "rules-submission"),
    Route("terms", TermsViewSet, "terms"),
    Route("offerings", OfferingViewSet, "offering"),
    Route("availability", AvailabilityViewSet, "availability"),
    Route("software-approvals", SoftwareApprovalViewSet, "software-approval"),
]
