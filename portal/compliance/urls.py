"""Portal pages for compliance records, offerings and the dashboard."""

from django.urls import path

from portal.compliance.views import (
    availability,
    dashboard,
    forward,
    layouts,
    mine,
    offerings,
    par,
    paytables,
    rules,
    software,
    terms,
)

app_name = "compliance"

urlpatterns = [
    path("", dashboard.dashboard, name="dashboard"),
    path("mine/", mine.my_submissions, name="mine"),
    path("layouts/", layouts.layout_list, name="layout-list"),
    path("layouts/new/", layouts.layout_create, name="layout-create"),
    path("layouts/<int:pk>/", layouts.layout_detail, name="layout-detail"),
    path("layouts/<int:pk>/edit/", layouts.layout_edit, name="layout-edit"),
    path("layouts/<int:pk>/artwork/", layouts.layout_artwork, name="layout-artwork"),
    path(
        "layouts/<int:pk>/schematic.svg",
        layouts.layout_schematic_svg,
        name="layout-schematic-svg",
    ),
    path("layouts/<int:pk>/wheel.svg", layouts.layout_wheel_svg, name="layout-wheel-svg"),
    path("paytables/", paytables.paytable_list, name="paytable-list"),
    path("paytables/new/", paytables.paytable_create, name="paytable-create"),
    path("paytables/preview/", paytables.paytable_preview, name="paytable-preview"),
    path("paytables/<int:pk>/", paytables.paytable_detail, name="paytable-detail"),
    path("paytables/<int:pk>/edit/", paytables.paytable_edit, name="paytable-edit"),
    path("paytables/<int:pk>/par.csv", par.paytable_par_csv, name="paytable-par-csv"),
    path("paytables/<int:pk>/par.json", par.paytable_par_json, name="paytable-par-json"),
    path("paytables/<int:pk>/par.pdf", par.paytable_par_pdf, name="paytable-par-pdf"),
    path("rules/", rules.rules_list, name="rules-list"),
    path("rules/new/", rules.rules_create, name="rules-create"),
    path("rules/<int:pk>/", rules.rules_detail, name="rules-detail"),
    path("rules/<int:pk>/edit/", rules.rules_edit, name="rules-edit"),
    path(
        "rules/<int:pk>/use/<str:kind>/<int:record_pk>/",
        forward.rules_amend_to_use,
        name="rules-amend-to-use",
    ),
    path("terms/", terms.terms_list, name="terms-list"),
    path("terms/new/", terms.terms_create, name="terms-create"),
    path("terms/<int:pk>/", terms.terms_detail, name="terms-detail"),
    path("terms/<int:pk>/edit/", terms.terms_edit, name="terms-edit"),
    path("offerings/", offerings.offering_list, name="offering-list"),
    path("offerings/new/", offerings.offering_create, name="offering-create"),
    path("offerings/listed/", offerings.offering_listed, name="offering-listed"),
    path("offerings/<int:pk>/", offerings.offering_detail, name="offering-detail"),
    path("offerings/<int:pk>/edit/", offerings.offering_edit, name="offering-edit"),
    path("availability/", availability.availability_list, name="availability-list"),
    path("software/", software.approval_list, name="software-list"),
    path("software/new/", software.approval_create, name="software-new"),
    path("software/<int:pk>/", software.approval_detail, name="software-detail"),
    path("software/<int:pk>/document/", software.approval_document, name="software-document"),
    path("availability/export.csv", availability.availability_export, name="availability-export"),
]
