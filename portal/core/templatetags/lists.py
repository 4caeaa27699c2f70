"""``{% column_headers columns %}``: a list's header cells, drawn from its declared columns
(``portal.core.lists.Columns``): one per column the page shows, in its order.

A column that sorts links to its sort: the first click sorts ascending (descending for a
column declared ``desc_first``: times where the newest is wanted first, sums where the
largest is), the next reverses it; the page number is dropped, the other filters kept. The
header says how the list is sorted (``aria-sort``) to screen readers too. With
``sortable=False`` (a short list of the same rows, not filtered) no header links."""

from __future__ import annotations

from django import template

from portal.core.lists import Column, Columns

register = template.Library()


@register.inclusion_tag("core/_column_headers.html", takes_context=True)
def column_headers(context, columns: Columns, sortable: bool = True) -> dict:
    query = context["request"].GET
    return {"headers": [_header(query, column, sortable) for column in columns.page]}


def _header(query, column: Column, sortable: bool) -> dict:
    header = {"column": column, "state": "", "href": ""}
    if not (sortable and column.sort):
        return header
    query = query.copy()
    current, key = query.get("sort", ""), column.name
    if current == key:
        header["state"], target = "ascending", f"-{key}"
    elif current == f"-{key}":
        header["state"], target = "descending", key
    else:
        target = f"-{key}" if column.desc_first else key
    query["sort"] = target
    query.pop("page", None)
    query.pop("export", None)
    header["href"] = f"?{query.urlencode()}"
    return header
