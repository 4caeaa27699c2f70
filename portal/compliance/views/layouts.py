"""Layout pages (§ 601a.10(a), § 617b.8(b), (c)): the wheel, the grid, the Bureau's decision."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_safe
from reportlab.graphics.shapes import Drawing

import jinzi
from portal.access import policy
from portal.access.pages import visible_or_404
from portal.access.policy import Action
from portal.compliance.forms import LayoutApproveForm, LayoutForm
from portal.compliance.models import Layout
from portal.compliance.schematic import drawing_svg, layout_drawing, wheel_drawing
from portal.compliance.services import layouts as layout_services
from portal.compliance.views import records
from portal.compliance.views.common import acting_holder, form_page, holder_choices
from portal.compliance.workflow import RECORD_WORKFLOW
from portal.core.errors import ValidationFailed
from portal.core.pages import domain_errors

_EXTENSIONS = {"application/pdf": "pdf", "image/png": "png", "image/svg+xml": "svg"}

SVG_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'"


def wheel_picture(layout: Layout) -> dict:
    """The wheel in its order, the colour after 0 and the 0-above-4×3 grid, each number
    with its colour."""
    try:
        wheel = layout.wheel()
    except jinzi.JinziError as error:
        return {"wheel_error": str(error)}
    return {
        "wheel": [(number, wheel.color(number).value) for number in wheel.order],
        "first_colour": wheel.first.value,
        "grid": [[(n, wheel.color(n).value) for n in row] for row in jinzi.LAYOUT_ROWS],
    }


KIND = records.RecordKind(
    model=Layout,
    noun="layout",
    url="layout",
    plural="Layouts",
    approve_form=LayoutApproveForm,
    detail_template="compliance/layouts/detail.html",
    describe=wheel_picture,
)


@login_required
@require_safe
@domain_errors
def layout_list(request: HttpRequest) -> HttpResponse:
    return records.list_page(request, KIND)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def layout_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return records.detail_page(request, KIND, pk)


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def layout_create(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.DRAFT)
    data = (request.POST, request.FILES) if request.method == "POST" else ()
    form = LayoutForm(*data, holders=holder_choices(request.user))
    if form.is_bound and form.is_valid():
        try:
            layout = layout_services.layout_create(
                actor=request.user,
                holder=acting_holder(request.user, form),
                **form.service_fields(),
            )
        except ValidationFailed as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"Layout {layout.title!r} drafted.")
            return redirect("compliance:layout-detail", layout.pk)
    return form_page(request, "compliance/layouts/form.html", {"form": form, "layout": None})


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def layout_edit(request: HttpRequest, pk: int) -> HttpResponse:
    layout = visible_or_404(request.user, Layout.objects.all(), pk, Action.DRAFT)
    RECORD_WORKFLOW.expect_status(layout, RECORD_WORKFLOW["edit"])
    initial = {
        "title": layout.title,
        "wheel_order": ",".join(map(str, layout.wheel_order)),
        "first_colour": layout.first_colour,
        "signage_text": layout.signage_text,
    }
    data = (request.POST, request.FILES) if request.method == "POST" else ()
    form = LayoutForm(*data, initial=initial)
    if form.is_bound and form.is_valid():
        try:
            layout_services.layout_update(
                actor=request.user, layout=layout, **form.service_fields()
            )
        except ValidationFailed as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"Layout {layout.title!r} saved.")
            return redirect("compliance:layout-detail", layout.pk)
    return form_page(request, "compliance/layouts/form.html", {"form": form, "layout": layout})


@login_required
@require_safe
@domain_errors
def layout_artwork(request: HttpRequest, pk: int) -> FileResponse:
    """The artwork file, to those who may see the layout, as the type it was checked to be."""
    layout = visible_or_404(request.user, Layout.objects.all(), pk)
    content_type = layout.artwork_content_type
    if not layout.artwork or content_type not in _EXTENSIONS:
        raise Http404("this layout has no artwork")
    try:
        stream = layout.artwork.open("rb")
    except FileNotFoundError:
        raise Http404("the artwork file is missing") from None
    name = f"layout-{layout.pk}-v{layout.version}.{_EXTENSIONS[content_type]}"
    response = FileResponse(stream, content_type=content_type, filename=name)
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    if content_type == "image/svg+xml":
        # An SVG opened on its own could run script as this site: sandboxed, and allowed
        # nothing but its own inline styling (no script, no fetch, no stylesheet from outside).
        response["Content-Security-Policy"] = SVG_POLICY
    return response


def _picture(
    request: HttpRequest, pk: int, draw: Callable[..., Drawing], name: str
) -> HttpResponse:
    """A picture of the layout drawn from its wheel, as SVG, to those who may see the
    layout; a wheel that does not read is a 400 citing § 617b.8(c)."""
    layout = visible_or_404(request.user, Layout.objects.all(), pk, Action.VIEW)
    try:
        wheel = layout.wheel()
    except jinzi.JinziError as error:
        raise ValidationFailed(
            f"This layout's wheel cannot be drawn until it is put right: {error}"
        ) from None
    drawing = draw(wheel, title=f"{layout.title} v{layout.version}")
    response = HttpResponse(drawing_svg(drawing), content_type="image/svg+xml")
    response["Content-Disposition"] = (
        f'inline; filename="layout-{layout.pk}-v{layout.version}-{name}.svg"'
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    # Opened on its own, it is as sandboxed as uploaded SVG artwork.
    response["Content-Security-Policy"] = SVG_POLICY
    return response


@login_required
@require_safe
@domain_errors
def layout_schematic_svg(request: HttpRequest, pk: int) -> HttpResponse:
    """The betting layout's schematic (§ 601a.10(a), § 617b.8(d)) in the wheel's colours."""
    return _picture(request, pk, layout_drawing, "schematic")


@login_required
@require_safe
@domain_errors
def layout_wheel_svg(request: HttpRequest, pk: int) -> HttpResponse:
    """The wheel (§ 617b.8(c)), clockwise from 0 at the top."""
    return _picture(request, pk, wheel_drawing, "wheel")
