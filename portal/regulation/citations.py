"""Where the code says it applies a clause, and which clauses each test says it proves.

Code cites a clause in one of four forms, each found here by a regular expression:

- ``§ 617b.8(g)(2)``: a section sign, one space, the register's id. Any ``§ NNNx.N…`` is
  read, registered or not, so a typo (``§ 617b.8(h)``) surfaces as an unknown clause; only
  a section of another document named just before it (``RFC 6750 §3.1``) is not ours;
- ``"617b.8(c)"``: a string literal that is exactly an id (``jinzi.game``'s clause
  constants, which errors are built from);
- ``reading:zero-splits``: a Reading of the register, cited by its id, written as is;
- ``Chapter 617a``: a chapter of 58 Pa. Code as a whole, registered by its number (``617a``).

A line that marks a Reading the old way (``**Reading:**``, "notes.md reading", "the
Reading") without a ``reading:`` id on it is reported too: a regulator cannot follow a
Reading that does not say which one it is.

Scanned: ``jinzi/``, ``portal/`` and ``templates/``, text files only. Not scanned:
migrations (generated copies of the models' help texts, which are scanned where written),
and ``portal/regulation/`` itself (the register quotes the rule, citations and all).

Tests say what they claim by name (``test_617b8_g_2_…``, see ``claims_in_name``) or by a
``@pytest.mark.clause("617b.8(g)(2)", kind="proves")`` marker; both are read with ``ast``,
never imported. Each claim has a kind (``CLAIM_KINDS``): ``proves`` (the test shows the code
does what the clause says), ``cites-in-message`` (it only checks that a refusal cites the
clause) or ``related`` (it tests something around the clause: a figure built on it, a page
that shows it, a limit on how fast it is read). A name claims ``proves`` unless a marker on
the test names the same clause with another kind; a marker always says its kind (one without,
or with another word, is reported). The marker of a module (``pytestmark``) or a class applies
to each of its tests, and the test's own marker overrides it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from portal.regulation.register import (
    CHAPTER_PATTERN,
    Clause,
    is_canonical,
    parent_of,
    section_tokens,
)

ROOT = Path(__file__).resolve().parents[2]
CODE_ROOTS = ("jinzi", "portal", "templates")
TEST_ROOT = "tests"
TEXT_SUFFIXES = frozenset({".py", ".html", ".txt", ".js", ".css", ".svg", ".md"})
SKIPPED_PARTS = frozenset({"migrations", "__pycache__", "node_modules"})
SKIPPED_PREFIXES = ("portal/regulation/",)
# The check's own tests hold wrong citations on purpose, as the inputs they test with.
SKIPPED_TEST_TEXT = ("tests/portal/regulation/",)

SECTION_CITE_RE = re.compile(r"§(?P<space>\s*)(?P<id>\d+[a-z]*\.\d+[a-z]*(?:\([A-Za-z0-9]+\))*)")
CONSTANT_CITE_RE = re.compile(r"""(?P<q>["'])(?P<id>\d{3}[a-z]\.\d+(?:\([A-Za-z0-9]+\))*)(?P=q)""")
READING_CITE_RE = re.compile(r"(?<![\w:-])reading:(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)")
CHAPTER_CITE_RE = re.compile(rf"\b[Cc]hapter(?P<space>\s*)(?P<id>{CHAPTER_PATTERN})\b")
READING_MARKER_RE = re.compile(
    r"\*\*Readings?\b|\.md\W{0,3}[Rr]eadings?\b|\b(?:the|a|our|this) Reading\b"
    r"|^\W*Readings of\b"
)
# "RFC 6750 §3.1", "RFC 9110, § 15.5": a section of an RFC, not of 58 Pa. Code.
OTHER_DOCUMENT_RE = re.compile(r"\bRFC\s*\d+\W{0,3}$")
SECTION_LIKE_RE = re.compile(r"(?P<section>\d{3}[a-z]\d+)(?P<sub>[a-z])?(?P<para>\d+)?")
ARTICLE = "a"  # "test_811a7_a_…": the article, unless the section registers an (a)

# What a test's claim says of its clause (see the module's docstring).
PROVES = "proves"
CITES_IN_MESSAGE = "cites-in-message"
RELATED = "related"
CLAIM_KINDS = (PROVES, CITES_IN_MESSAGE, RELATED)


@dataclass(frozen=True)
class Citation:
    path: str
    line: int
    clause_id: str
    written: str  # the text as it stands in the file

    @property
    def canonical(self) -> bool:
        """Whether it is written the one way: ``§ <id>`` (one space), ``"<id>"``,
        ``reading:<name>`` or ``Chapter <id>``, with a canonical id."""
        if self.written.startswith("§") and self.written != f"§ {self.clause_id}":
            return False
        if self.written[:1] in "Cc" and self.written != f"Chapter {self.clause_id}":
            return False
        return is_canonical(self.clause_id)


@dataclass(frozen=True)
class UncitedReading:
    path: str
    line: int
    text: str


@dataclass(frozen=True)
class Mark:
    """One ``pytest.mark.clause(…)``: the ids it names, the kind it gives them (None when it
    says none; any other word is kept, to be reported) and the line it is on."""

    ids: tuple[str, ...]
    kind: str | None
    line: int


@dataclass(frozen=True)
class TestCase:
    path: str
    line: int
    function: str  # "test_x", or "TestClass::test_x"
    claims: tuple[str, ...]  # clause ids, registered or not
    marked: tuple[str, ...]  # of those, the ones a clause marker gave
    kinds: tuple[str | None, ...] = ()  # each claim's kind, in the order of ``claims``
    marks: tuple[Mark, ...] = ()  # the clause markers that apply to it

    @property
    def nodeid(self) -> str:
        return f"{self.path}::{self.function}"

    def kind_of(self, clause_id: str) -> str | None:
        """The kind of its claim of ``clause_id``: ``proves`` for a name's claim no marker
        re-kinds; a marker's kind, None where that marker gives none."""
        return dict(zip(self.claims, self.kinds, strict=True)).get(clause_id, PROVES)


def citations_in_text(path: str, text: str) -> tuple[list[Citation], list[UncitedReading]]:
    """Every clause cited in ``text``, and every Reading marked there without its id."""
    found: list[Citation] = []
    uncited: list[UncitedReading] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in SECTION_CITE_RE.finditer(line):
            if not OTHER_DOCUMENT_RE.search(line, 0, match.start()):
                found.append(Citation(path, number, match["id"], match[0]))
        for match in CONSTANT_CITE_RE.finditer(line):
            found.append(Citation(path, number, match["id"], match[0]))
        readings = list(READING_CITE_RE.finditer(line))
        for match in readings:
            found.append(Citation(path, number, f"reading:{match['slug']}", match[0]))
        if not readings and READING_MARKER_RE.search(line):
            uncited.append(UncitedReading(path, number, line.strip()))
        for match in CHAPTER_CITE_RE.finditer(line):
            found.append(Citation(path, number, match["id"], match[0]))
    return found, uncited


def _text_files(root: Path, folders: tuple[str, ...]) -> Iterator[tuple[str, Path]]:
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            relative = path.relative_to(root).as_posix()
            if (
                path.is_file()
                and path.suffix in TEXT_SUFFIXES
                and not SKIPPED_PARTS & set(path.relative_to(root).parts)
                and not relative.startswith(SKIPPED_PREFIXES)
            ):
                yield relative, path


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def scan_code(root: Path = ROOT) -> tuple[list[Citation], list[UncitedReading]]:
    """Citations in the code, pages and templates, in path then line order."""
    found: list[Citation] = []
    uncited: list[UncitedReading] = []
    for relative, path in _text_files(root, CODE_ROOTS):
        text = _read(path)
        if text is not None:
            cites, marks = citations_in_text(relative, text)
            found += cites
            uncited += marks
    return found, uncited


def _id_of(token: str) -> str:
    """``617b.9`` for the token ``617b9``: how an unregistered section token is reported."""
    return f"{token[:4]}.{token[4:]}"


def _subsection(section: str, letter: str, clauses: Mapping[str, Clause]) -> str | None:
    """The id a separate letter token claims under ``section``, or None when it is a word.

    A registered subsection is claimed. Otherwise, where the section has registered parts,
    the letter is a wrong claim to report (``test_617b8_h_…``), except "a", the article
    (``test_811a7_a_…``: 811a.7 registers (f) only). Where it has none, the letter is a
    word (``test_810a5_p_values_…``)."""
    clause_id = f"{section}({letter})"
    if clause_id in clauses:
        return clause_id
    if letter == ARTICLE:
        return None
    return clause_id if any(parent_of(c) == section for c in clauses) else None


def _paragraph(sub_id: str, digits: str, clauses: Mapping[str, Clause]) -> str | None:
    """The id a number token claims under a subsection, or None when it is just a number
    (the subsection registers no paragraphs, so "test_601a10_a_15_days" says "15 days")."""
    clause_id = f"{sub_id}({int(digits)})"
    if clause_id in clauses or any(c.startswith(f"{sub_id}(") for c in clauses):
        return clause_id
    return None


def _reading_claim(tokens: list[str], clauses: Mapping[str, Clause]) -> str:
    slugs = [c.removeprefix("reading:") for c in clauses if c.startswith("reading:")]
    fits = [s for s in slugs if tokens[: len(s.split("-"))] == s.split("-")]
    return f"reading:{max(fits, key=len)}" if fits else f"reading:{'-'.join(tokens)}"


def claims_in_name(name: str, clauses: Mapping[str, Clause]) -> list[str]:
    """The clauses a test's name claims, registered or not (an unregistered one is a typo).

    ``test_`` then a section token (``617b8``; the register's sections without the dot),
    then optionally a subsection letter and a paragraph number, each its own token or glued
    to the section (``811a7f``): ``test_617b8_g_2_…`` claims 617b.8(g)(2). More claims may
    follow, as another section token or ``and_<letter>`` (``test_617b8_c_and_g_…``,
    ``test_810a11_811a7_…``). Whether a separate letter is a claim or a word is
    ``_subsection``'s rule; a glued letter is always a claim. A number after a subsection
    with registered paragraphs is always a claim (``test_617b8_d_11_…`` is reported).
    Names starting ``test_reading_`` claim the registered Reading their next words spell.
    """
    if not name.startswith("test_"):
        return []
    tokens = name.removeprefix("test_").split("_")
    if tokens[0] == "reading" and len(tokens) > 1:
        return [_reading_claim(tokens[1:], clauses)]
    sections = section_tokens(clauses)
    claims: list[str] = []
    position = 0
    while position < len(tokens) and (match := SECTION_LIKE_RE.fullmatch(tokens[position])):
        section = sections.get(match["section"]) or _id_of(match["section"])
        position += 1
        if match["sub"]:
            claim = f"{section}({match['sub']})"
            claims.append(f"{claim}({int(match['para'])})" if match["para"] else claim)
            continue
        claim, position = _claim_from(section, tokens, position, clauses)
        claims.append(claim)
        if claim == section and position < len(tokens) and tokens[position - 1] == ARTICLE:
            break  # "test_811a7_a_…": the words have begun
        while tokens[position : position + 1] == ["and"] and _is_letter(tokens, position + 1):
            claims.append(f"{section}({tokens[position + 1]})")
            position += 2
    return claims


def _is_letter(tokens: list[str], position: int) -> bool:
    return position < len(tokens) and len(tokens[position]) == 1 and tokens[position].isalpha()


def _claim_from(
    section: str, tokens: list[str], position: int, clauses: Mapping[str, Clause]
) -> tuple[str, int]:
    """The claim a section token starts, from the separate letter and number tokens after
    it, and the position of the first token it did not use. A section whose parts are
    numbered (``814a.2(4)``) takes the number itself: ``test_814a2_4_…``."""
    if position < len(tokens) and tokens[position].isdigit():
        numbered = f"{section}({int(tokens[position])})"
        if numbered in clauses:
            return numbered, position + 1
    if not _is_letter(tokens, position):
        return section, position
    sub = _subsection(section, tokens[position], clauses)
    if sub is None:
        return section, position + 1  # a word: the article, or a letter where none is registered
    position += 1
    if position < len(tokens) and tokens[position].isdigit():
        paragraph = _paragraph(sub, tokens[position], clauses)
        if paragraph is not None:
            return paragraph, position + 1
    return sub, position


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def _kind(node: ast.Call) -> str | None:
    for keyword in node.keywords:
        if keyword.arg == "kind":
            value = keyword.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value
            return ast.unparse(value)  # not a plain word: reported as an unknown kind
    return None


def _marked(nodes: list[ast.expr]) -> list[Mark]:
    """The ``pytest.mark.clause("…", …, kind="…")`` markers among decorators or pytestmark."""
    found = []
    for node in nodes:
        if isinstance(node, ast.List | ast.Tuple):
            found += _marked(list(node.elts))
        elif isinstance(node, ast.Call) and _dotted(node.func).endswith("mark.clause"):
            ids = tuple(
                a.value
                for a in node.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            )
            found.append(Mark(ids, _kind(node), node.lineno))
    return found


def _pytestmark(body: list[ast.stmt]) -> list[Mark]:
    for statement in body:
        if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in statement.targets
        ):
            return _marked([statement.value])
    return []


def _case(path: str, node, prefix: str, marks: list[Mark], clauses) -> TestCase:
    """A test's claims: its name's (``proves``), then its markers', the nearest marker of an
    id deciding that id's kind."""
    kinds: dict[str, str | None] = dict.fromkeys(claims_in_name(node.name, clauses), PROVES)
    for mark in marks:  # module, then class, then the test's own: the last one wins
        for clause_id in mark.ids:
            kinds[clause_id] = mark.kind
    marked = tuple(dict.fromkeys(i for mark in marks for i in mark.ids))
    return TestCase(
        path,
        node.lineno,
        f"{prefix}{node.name}",
        tuple(kinds),
        marked,
        tuple(kinds.values()),
        tuple(marks),
    )


def _cases(
    path: str, body: list[ast.stmt], prefix: str, inherited: list[Mark], clauses
) -> Iterator[TestCase]:
    for node in body:
        if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            marks = inherited + _marked(node.decorator_list) + _pytestmark(node.body)
            yield from _cases(path, node.body, f"{prefix}{node.name}::", marks, clauses)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            # Decorators apply from the bottom up; read top-down, the one nearest the name
            # is listed last either way, and a test names a clause in one marker at most.
            yield _case(path, node, prefix, inherited + _marked(node.decorator_list), clauses)


def scan_tests(
    clauses: Mapping[str, Clause], root: Path = ROOT
) -> tuple[list[TestCase], list[Citation]]:
    """Every test function under ``tests/`` with its claims, and the clauses the test
    files cite in their text (a test citing an unregistered clause is a typo too)."""
    cases: list[TestCase] = []
    cited: list[Citation] = []
    for relative, path in _text_files(root, (TEST_ROOT,)):
        if path.suffix != ".py" or (text := _read(path)) is None:
            continue
        if not relative.startswith(SKIPPED_TEST_TEXT):
            cited += citations_in_text(relative, text)[0]
        if path.name.startswith("test_"):
            module = ast.parse(text, filename=relative)
            cases += _cases(relative, module.body, "", _pytestmark(module.body), clauses)
    return cases, cited
