"""Fixed SQL for the hot paths, with Django's own conversion of values both ways.

The ORM builds every query in Python, which costs several times the database round
trip itself (measured in ``bench/bench_rounds.py``). The few statements that run on
every signed-in request and every round are written once as SQL instead. These two
helpers keep them honest: values go in as the model field would prepare them, and
come out as the ORM would read them (the same backend and field converters), so the
rest of the code sees ordinary model instances and never a backend's raw types.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import models


class RowReader:
    """Reads instances of ``model`` from SQL rows that select ``columns``, in order."""

    def __init__(self, model: type[models.Model], field_names: Iterable[str], alias: str):
        wanted = set(field_names)
        # from_db() takes values in the model's field order; keep to it.
        self.fields = [f for f in model._meta.concrete_fields if f.name in wanted]
        missing = wanted - {f.name for f in self.fields}
        if missing:
            raise ValueError(f"{model.__name__} has no column(s) {sorted(missing)}")
        self.model = model
        self.alias = alias
        self.attnames = [f.attname for f in self.fields]
        self.columns = ", ".join(f"{alias}.{f.column}" for f in self.fields)
        self._converters: dict[str, list] = {}

    def __len__(self) -> int:
        return len(self.fields)

    def _converters_for(self, connection) -> list:
        converters = self._converters.get(connection.alias)
        if converters is None:
            converters = []
            for index, field in enumerate(self.fields):
                column = field.get_col(self.alias)
                functions = connection.ops.get_db_converters(column) + column.get_db_converters(
                    connection
                )
                if functions:
                    converters.append((index, functions, column))
            self._converters[connection.alias] = converters
        return converters

    def read(self, values: Sequence[Any], connection) -> models.Model:
        values = list(values)
        for index, functions, column in self._converters_for(connection):
            value = values[index]
            for function in functions:
                value = function(value, column, connection)
            values[index] = value
        return self.model.from_db(connection.alias, self.attnames, values)


def fetch_one(connection, sql: str, params: Sequence[Any]) -> tuple | None:
    """The first row ``sql`` returns on ``connection``, or None."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def prepared(model: type[models.Model], values: dict[str, Any], connection) -> list[Any]:
    """``values`` (by field name) as ``model``'s fields would write them to ``connection``."""
    meta = model._meta
    return [
        meta.get_field(name).get_db_prep_save(value, connection) for name, value in values.items()
    ]


def columns_of(model: type[models.Model], field_names: Iterable[str]) -> str:
    return ", ".join(model._meta.get_field(name).column for name in field_names)
