"""The register of clauses: what the project applies, read from ``register.toml``.

One file, edited by hand, is the answer to "which clauses do we apply?": the traceability
matrix, the citation check and the Regulation page all read it through ``register()``. It
is checked as it is read (unique canonical ids, known kinds, every part's parent present; a
section's chapter need not be), so a bad edit fails the first command or test that loads it,
naming the entry.

No Django here: the scanner and the check run from a plain ``python`` or pytest process.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

REGISTER_PATH = Path(__file__).with_name("register.toml")

KINDS = ("rule", "neighbour", "reading")
RECORD_KINDS = (
    "layout",
    "paytable",
    "rules_submission",
    "terms",
    "offering",
    "round",
    "audit_event",
    "availability",
    "report",
    "player_account",
    "software_installation",  # the Software Installation/Removal Log (§ 811a.7(e))
)
RULE_SECTION = "617b.8"
# Where a Reading comes from: "domain", a reading of the rule's text recorded with the domain
# notes (one paragraph there marked as a Reading); or "project", a choice the project made
# that those notes do not mark as a Reading of their own.
READING_SOURCES = ("domain", "project")
# Whether the code applies a clause today ("applied", the default), or a later issue will
# ("planned"). A planned clause needs no test yet; an applied one does.
APPLIED = "applied"
PLANNED = "planned"
STATUSES = (APPLIED, PLANNED)

# A section of 58 Pa. Code (``617b.8``), then at most a lettered subsection and a numbered
# paragraph, the way the regulation numbers them: ``617b.8(g)(2)``; or, in a section whose
# parts are numbered, not lettered, one numbered part: ``814a.2(4)``.
CHAPTER_PATTERN = r"\d{3}[a-z]"
SECTION_PATTERN = rf"{CHAPTER_PATTERN}\.\d+"
CLAUSE_ID_RE = re.compile(
    rf"(?P<section>{SECTION_PATTERN})"
    r"(?:\((?P<sub>[a-z])\)(?:\((?P<para>\d+)\))?|\((?P<numbered>\d+)\))?"
)
# A chapter of 58 Pa. Code as a whole (``617a``, cited "Chapter 617a"): registered where the
# code cites the chapter itself; its registered sections are its parts.
CHAPTER_ID_RE = re.compile(CHAPTER_PATTERN)
READING_ID_RE = re.compile(r"reading:[a-z0-9]+(?:-[a-z0-9]+)*")


class RegisterError(ValueError):
    """The register file is wrong; the message names the entry and what is wrong."""


@dataclass(frozen=True)
class Clause:
    id: str
    kind: str
    title: str
    summary: str
    text: str = ""
    governs: tuple[str, ...] = ()
    domain_section: str = ""
    domain_opening: str = ""
    source: str = ""  # a Reading's: "domain" or "project"; empty for the rule and neighbours
    status: str = APPLIED
    pending: str = ""  # what of an applied clause the code does not apply yet, if anything

    @property
    def parent(self) -> str | None:
        return parent_of(self.id)

    @property
    def planned(self) -> bool:
        """Whether a later issue will apply it: not yet applied, so no test proves it yet."""
        return self.status == PLANNED

    @property
    def section(self) -> str:
        """The section a clause belongs to (``617b.8`` for ``617b.8(g)(2)``); a Reading's or
        a chapter's id."""
        match = CLAUSE_ID_RE.fullmatch(self.id)
        return match["section"] if match else self.id

    @property
    def chapter(self) -> bool:
        """Whether it is a chapter as a whole (``617a``), whose parts are its sections."""
        return is_chapter(self.id)


def is_canonical(clause_id: str) -> bool:
    """Whether ``clause_id`` is written the one way the register and the code write ids."""
    return bool(
        CLAUSE_ID_RE.fullmatch(clause_id)
        or READING_ID_RE.fullmatch(clause_id)
        or CHAPTER_ID_RE.fullmatch(clause_id)
    )


def is_chapter(clause_id: str) -> bool:
    return bool(CHAPTER_ID_RE.fullmatch(clause_id))


def chapter_of(clause_id: str) -> str | None:
    """The chapter a clause of 58 Pa. Code is in (``617a`` for ``617a.2``); None for a Reading."""
    match = CLAUSE_ID_RE.fullmatch(clause_id)
    return match["section"].partition(".")[0] if match else None


def parent_of(clause_id: str) -> str | None:
    """The clause one level up (``617b.8(g)`` for ``617b.8(g)(2)``); None for a section or
    a Reading. Worked out from the id alone, so it also answers for unregistered ids."""
    match = CLAUSE_ID_RE.fullmatch(clause_id)
    if match is not None and match["numbered"] is not None:
        return match["section"]
    if match is None or match["sub"] is None:
        return None
    if match["para"] is None:
        return match["section"]
    return f"{match['section']}({match['sub']})"


def registered_parent(clause_id: str, clauses: Mapping[str, Clause]) -> str | None:
    """The clause one level up in ``clauses``: ``parent_of``, or for a section its chapter
    when the chapter is registered (``617a`` for ``617a.2``; ``617b.8`` has none)."""
    parent = parent_of(clause_id)
    if parent is None and CLAUSE_ID_RE.fullmatch(clause_id) and not is_chapter(clause_id):
        chapter = chapter_of(clause_id)
        return chapter if chapter in clauses else None
    return parent


def ancestors_of(clause_id: str, clauses: Mapping[str, Clause] | None = None) -> list[str]:
    """Every clause above ``clause_id``, nearest first; with ``clauses``, up to a registered
    chapter too."""
    found = []
    step = parent_of if clauses is None else lambda c: registered_parent(c, clauses)
    parent = step(clause_id)
    while parent is not None:
        found.append(parent)
        parent = step(parent)
    return found


def section_token(section: str) -> str:
    """How a test name writes a section: ``617b8`` for ``617b.8`` (a dot cannot be in a name)."""
    return section.replace(".", "")


def _fail(entry: int, clause_id: object, problem: str) -> RegisterError:
    return RegisterError(f"register.toml, clause {entry} ({clause_id!r}): {problem}")


def _clause(entry: int, raw: Mapping) -> Clause:
    allowed = {field for field in Clause.__dataclass_fields__}
    clause_id = raw.get("id")
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise _fail(entry, clause_id, f"unknown fields {', '.join(unknown)}")
    for field in ("id", "kind", "title", "summary"):
        if not isinstance(raw.get(field), str) or not raw[field].strip():
            raise _fail(entry, clause_id, f"{field} must be a non-empty string")
    if not is_canonical(clause_id):
        raise _fail(
            entry, clause_id, "id is not canonical, e.g. 617b.8(g)(2) or reading:zero-splits"
        )
    kind = raw["kind"]
    if kind not in KINDS:
        raise _fail(entry, clause_id, f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    expected = _expected_kind(clause_id)
    if kind != expected:
        raise _fail(entry, clause_id, f"kind must be {expected!r} for this id, got {kind!r}")
    if "\n" in raw["summary"]:
        raise _fail(entry, clause_id, "summary must be one line")
    governs = raw.get("governs", [])
    bad = [name for name in governs if name not in RECORD_KINDS]
    if not isinstance(governs, list) or bad:
        raise _fail(entry, clause_id, f"governs must list record kinds of {RECORD_KINDS}")
    if kind == "rule" and not raw.get("text"):
        raise _fail(entry, clause_id, "a part of § 617b.8 carries the rule's own text")
    _check_source(entry, clause_id, kind, raw)
    _check_status(entry, clause_id, raw)
    return Clause(**{**raw, "governs": tuple(governs)})


def _check_source(entry: int, clause_id: str, kind: str, raw: Mapping) -> None:
    """A domain Reading names the paragraph of the domain notes it is; a project Reading
    claims none, since those notes do not mark it as one; only a Reading has a source."""
    source = raw.get("source", "")
    placed = raw.get("domain_section") or raw.get("domain_opening")
    if kind != "reading":
        if source or placed:
            raise _fail(
                entry, clause_id, "only a Reading has a source or a place in the domain notes"
            )
        return
    if source not in READING_SOURCES:
        raise _fail(
            entry,
            clause_id,
            f"a Reading names its source, one of {', '.join(READING_SOURCES)} (a domain "
            f"one also its domain_section and domain_opening), got {source!r}",
        )
    if source == "domain" and not (raw.get("domain_section") and raw.get("domain_opening")):
        raise _fail(
            entry, clause_id, "a domain Reading names its domain_section and domain_opening"
        )
    if source == "project" and placed:
        raise _fail(
            entry,
            clause_id,
            "a project Reading is not in the domain notes, so it names no domain_section or "
            "domain_opening",
        )


def _check_status(entry: int, clause_id: str, raw: Mapping) -> None:
    """Applied (the default) or planned; only an applied clause says what of it is pending,
    since all of a planned one is."""
    status = raw.get("status", APPLIED)
    if status not in STATUSES:
        raise _fail(
            entry, clause_id, f"status must be one of {', '.join(STATUSES)}, got {status!r}"
        )
    pending = raw.get("pending", "")
    if not isinstance(pending, str) or "\n" in pending:
        raise _fail(entry, clause_id, "pending must be one line")
    if pending and status != APPLIED:
        raise _fail(
            entry, clause_id, "only an applied clause says what is pending; all of it is planned"
        )


def _expected_kind(clause_id: str) -> str:
    if clause_id.startswith("reading:"):
        return "reading"
    if is_chapter(clause_id):
        return "neighbour"  # a chapter around the rule: Roulette's (617a), the accounts' (812a)
    section = CLAUSE_ID_RE.fullmatch(clause_id)["section"]
    return "rule" if section == RULE_SECTION else "neighbour"


def load_register(path: Path = REGISTER_PATH) -> Mapping[str, Clause]:
    """Read and check a register file: clauses by id, in the file's order."""
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    entries = data.get("clause")
    if not isinstance(entries, list) or not entries:
        raise RegisterError(f"{path.name}: no [[clause]] entries")
    clauses: dict[str, Clause] = {}
    for entry, raw in enumerate(entries, start=1):
        clause = _clause(entry, raw)
        if clause.id in clauses:
            raise _fail(entry, clause.id, "registered twice")
        clauses[clause.id] = clause
    for entry, clause in enumerate(clauses.values(), start=1):
        if clause.parent is not None and clause.parent not in clauses:
            raise _fail(entry, clause.id, f"its parent {clause.parent} is not registered")
    return MappingProxyType(clauses)


@functools.cache
def register() -> Mapping[str, Clause]:
    """The project's register, read once per process."""
    return load_register()


def children_of(clause_id: str, clauses: Mapping[str, Clause]) -> list[str]:
    """The registered clauses directly under ``clause_id`` (a chapter's: its sections), in
    register order."""
    return [child for child in clauses if registered_parent(child, clauses) == clause_id]


def section_tokens(clauses: Mapping[str, Clause]) -> dict[str, str]:
    """Test-name tokens of the registered sections: ``{"617b8": "617b.8", …}``."""
    return {
        section_token(c.section): c.section
        for c in clauses.values()
        if c.kind != "reading" and not c.chapter
    }
