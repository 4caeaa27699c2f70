"""The README is one screen for a newcomer, and every page it and docs/ link to is there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_readme_starts_with_the_two_commands_and_stays_short():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 300
    opening = "\n".join(lines[:8])
    assert "make run" in opening and "make test" in opening


def test_every_relative_link_in_the_readme_and_docs_names_a_file_of_the_repository():
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text()):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # another site, or a heading of the same page
            path = (page.parent / target.split("#", 1)[0]).resolve()
            if not path.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []


def test_no_page_cites_a_file_outside_the_repository():
    for page in PAGES:
        text = page.read_text()
        assert "DOMAIN.md" not in text and "../shared" not in text, page.name
