"""``{% sort_header "key" "Label" %}``: a column header that sorts its list by the column.

The first click sorts ascending (``first="-"``: descending, for times where the newest is
wanted first), the next reverses it; the page number is dropped, the other filters kept.
The header says how the list is sorted (``aria-sort``) to screen readers too."""

from __future__ import annotations

from django import template

register = template.Library()


@register.inclusion_tag("core/_sort_header.html", takes_context=True)
def sort_header(context, key: str, label: str, first: str = "", css_class: str = "") -> dict:
    query = context["request"].GET.copy()
    current = query.get("sort", "")
    if current == key:
        state, target = "ascending", f"-{key}"
    elif current == f"-{key}":
        state, target = "descending", key
    else:
        state, target = "", f"{first}{key}"
    query["sort"] = target
    query.pop("page", None)
    query.pop("export", None)
    return {"label": label, "state": state, "href": f"?{query.urlencode()}", "class": css_class}
