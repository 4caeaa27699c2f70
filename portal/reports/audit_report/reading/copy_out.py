"""Reading rows out of PostgreSQL with ``COPY (SELECT …) TO STDOUT (FORMAT csv)``: whether
the database can (``available``), a fixed statement with its values bound (``bound``), and
one COPY's rows decoded into typed columns (``copied``, pyarrow's CSV reader). The pass's
blocks (``block_copy``), the account lines (``ledger_copy``) and the detail (``detail_copy``)
read this way.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.csv as pacsv
from psycopg import sql as pgsql

from portal.core.replica import read_connection
from portal.reports.audit_report.reading.columns import Columns

_ARROW = {
    "int": pa.int64(),
    "text": pa.string(),
    "json": pa.string(),  # the JSON's text, decoded where it is needed
    "instant": pa.timestamp("us", tz="UTC"),
}


def available() -> bool:
    """COPY is PostgreSQL's: elsewhere the ORM's readers, the reference, read instead."""
    return read_connection().vendor == "postgresql"


def bound(statement: str, params: list | dict) -> pgsql.Composed:
    """The fixed ``statement`` with its parameters as literals quoted by psycopg's adapters
    (COPY takes no server-side parameters; psycopg binds a COPY's on the client in any
    case): a list fills its ``%s`` in order, a dict its ``{name}`` places."""
    if isinstance(params, dict):
        literals = {name: pgsql.Literal(value) for name, value in params.items()}
        return pgsql.SQL(statement).format(**literals)
    return pgsql.SQL(statement.replace("%s", "{}")).format(*map(pgsql.Literal, params))


def arrow_types(columns: Columns) -> dict[str, pa.DataType]:
    """Each column's Arrow type, by name, in order."""
    return {name: _ARROW[kind] for name, kind in columns}


def copied(cursor, statement: str, params: list, types: dict[str, pa.DataType]):
    """One COPY's rows, decoded into typed columns named as the statement names them (one
    record batch)."""
    data = bytearray()
    with cursor.copy(bound(statement, params)) as copy:
        read = copy.read
        while block := read():
            data += block
    if not data:
        return pa.record_batch([pa.array([], type=kind) for kind in types.values()], list(types))
    table = pacsv.read_csv(
        pa.py_buffer(data),
        read_options=pacsv.ReadOptions(column_names=list(types)),
        parse_options=pacsv.ParseOptions(newlines_in_values=True),
        convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False),
    )
    return table.combine_chunks().to_batches()[0]
