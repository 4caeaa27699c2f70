"""§ 461a.4, reading:software-approval: the game software is named by one identity, the
SHA-256 digest of the manifest's files, which a laboratory can recompute from the same
files; the manifest holds every module of the project that ``round_play`` runs; the
identity is printed by ``manage.py software_identity``, shown on the Regulation page and
served by the API with whether it is approved."""

from __future__ import annotations

import hashlib
import io
import json
import shutil

import pytest
from django.core.management import call_command

from portal.core.software import (
    REPOSITORY,
    identity_of,
    is_digest,
    manifest,
    running_identity,
)
from portal.software.models import SoftwareApproval, SoftwareApprovalStatus
from tests.portal.factories import approve_running_software
from tests.portal.page_helpers import text
from tests.portal.software.import_closure import import_closure

ROUND_PLAY = "portal.game.play.services"


@pytest.mark.clause("461a.4", kind="proves")
@pytest.mark.clause("reading:software-approval", kind="proves")
def test_461a4_the_manifest_holds_every_project_module_round_play_imports():
    closure = import_closure(REPOSITORY, ROUND_PLAY)
    listed = set(manifest())

    assert {"portal/game/play/services.py", "jinzi/__init__.py"} <= closure
    assert sorted(closure - listed) == []


def test_461a4_every_file_of_the_manifest_exists():
    missing = [path for path in manifest() if not (REPOSITORY / path).is_file()]
    assert missing == []
    assert len(manifest()) == len(set(manifest())) > 50


def test_461a4_the_closure_follows_every_kind_of_import(tmp_path):
    """The closure the manifest is held to is read right: a module reached only through a
    relative import, ``from package import module``, a package's ``__init__`` or an import
    inside a function is in it; another project's module and an unused one are not."""
    files = {
        "portal/__init__.py": "",
        "portal/a/__init__.py": "from portal.a import init_only\n",
        "portal/a/init_only.py": "",
        "portal/a/start.py": "from . import sibling\nfrom ..b import deep\nimport os\n",
        "portal/a/sibling.py": "def f():\n    from portal.c import lazily\n",
        "portal/b/__init__.py": "",
        "portal/b/deep.py": "from portal.b.pkg import mod\nimport jinzi.engine\n",
        "portal/b/pkg/__init__.py": "",
        "portal/b/pkg/mod.py": "from portal.b.pkg.mod import nothing_new\n",
        "portal/c/__init__.py": "",
        "portal/c/lazily.py": "",
        "portal/unused.py": "",
        "jinzi/__init__.py": "",
        "jinzi/engine.py": "",
        "other/thing.py": "",
    }
    for path, body in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(body)

    closure = import_closure(tmp_path, "portal.a.start")

    assert closure == set(files) - {"portal/unused.py", "other/thing.py"}


def _recomputed(root, paths) -> str:
    """The digest by the rule ``portal.core.software`` documents, written out again."""
    whole = hashlib.sha256()
    for path in sorted(paths):
        data = (root / path).read_bytes()
        whole.update(path.encode() + b"\n" + str(len(data)).encode() + b"\n" + data)
    return whole.hexdigest()


@pytest.mark.clause("reading:software-approval", kind="proves")
def test_461a4_the_digest_is_recomputable_by_its_documented_rule():
    identity = running_identity()

    assert is_digest(identity.digest)
    assert identity.digest == _recomputed(REPOSITORY, manifest())
    assert [found.path for found in identity.files] == sorted(manifest())
    for found in identity.files:
        data = (REPOSITORY / found.path).read_bytes()
        assert (found.size, found.sha256) == (len(data), hashlib.sha256(data).hexdigest())
    assert identity.short == f"{identity.version} ({identity.digest[:12]})"


@pytest.fixture
def copy_of_the_software(tmp_path):
    for path in manifest():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPOSITORY / path, tmp_path / path)
    return tmp_path


@pytest.mark.clause("461a.4", kind="proves")
def test_461a4_changing_one_byte_of_one_file_changes_the_identity(copy_of_the_software):
    root = copy_of_the_software
    same = identity_of(root=root)
    assert same.digest == running_identity().digest

    changed_file = root / "portal/game/play/services.py"
    data = bytearray(changed_file.read_bytes())
    data[100] ^= 0x01
    changed_file.write_bytes(bytes(data))
    changed = identity_of(root=root)

    assert changed.digest != same.digest and is_digest(changed.digest)
    differing = [
        before.path
        for before, after in zip(same.files, changed.files, strict=True)
        if before != after
    ]
    assert differing == ["portal/game/play/services.py"]


def test_461a4_a_file_of_the_manifest_missing_is_an_error_never_skipped(copy_of_the_software):
    (copy_of_the_software / "portal/game/play/store.py").unlink()

    with pytest.raises(FileNotFoundError, match="portal/game/play/store.py"):
        identity_of(root=copy_of_the_software)


def test_461a4_a_digest_is_64_lower_case_hexadecimal_characters():
    assert is_digest("0a" * 32)
    assert not is_digest("0A" * 32) and not is_digest("0a" * 31) and not is_digest("g" * 64)


@pytest.mark.clause("461a.4", kind="related")
def test_461a4_the_command_prints_the_version_the_digest_and_every_file():
    out = io.StringIO()
    call_command("software_identity", stdout=out)
    lines = out.getvalue().splitlines()
    identity = running_identity()

    assert lines[0] == f"version {identity.version}"
    assert lines[1] == f"digest  {identity.digest}"
    assert lines[2] == f"{len(identity.files)} files (path, bytes, SHA-256):"
    assert lines[3:] == [f"{f.path}  {f.size}  {f.sha256}" for f in identity.files]


def test_461a4_the_command_prints_it_as_json():
    out = io.StringIO()
    call_command("software_identity", "--json", stdout=out)
    printed = json.loads(out.getvalue())
    identity = running_identity()

    assert printed["version"] == identity.version and printed["digest"] == identity.digest
    assert printed["files"][0] == {
        "path": identity.files[0].path,
        "size": identity.files[0].size,
        "sha256": identity.files[0].sha256,
    }
    assert _recomputed(REPOSITORY, [f["path"] for f in printed["files"]]) == printed["digest"]


def _withdraw_every_approval() -> None:
    SoftwareApproval.objects.update(status=SoftwareApprovalStatus.WITHDRAWN)


@pytest.mark.django_db
@pytest.mark.clause("461a.4", kind="related")
def test_461a4_the_regulation_page_shows_the_software_running_and_its_approval(
    login, officer, auditor
):
    identity = running_identity()
    page = text(login(auditor).get("/regulation/"))

    assert "Game software" in page and identity.digest in page
    assert f"version {identity.version}" in page and f"{len(identity.files)} files" in page
    assert "Not approved" in page and "no round is played (§ 461a.4)" in page

    approve_running_software(officer)
    page = text(login(auditor).get("/regulation/"))
    assert "Approved" in page and "Not approved" not in page


@pytest.mark.django_db
@pytest.mark.clause("461a.4", kind="related")
@pytest.mark.parametrize("role", ["officer", "manager_a", "auditor", "superuser"])
def test_461a4_every_back_office_role_reads_the_identity_from_the_api(
    api_as, request, officer, role
):
    client = api_as(request.getfixturevalue(role))
    identity = running_identity()

    body = client.get("/api/software/identity/").json()
    assert body["version"] == identity.version and body["digest"] == identity.digest
    assert [f["path"] for f in body["files"]] == [f.path for f in identity.files]
    assert body["approved"] is False

    approve_running_software(officer)
    assert client.get("/api/software/identity/").json()["approved"] is True
    _withdraw_every_approval()
    assert client.get("/api/software/identity/").json()["approved"] is False


@pytest.mark.django_db
def test_461a4_players_and_visitors_may_not_read_the_identity(api_as, player, anonymous):
    assert api_as(player).get("/api/software/identity/").status_code == 403
    assert anonymous.get("/api/software/identity/").status_code in (401, 403)
    assert api_as(player).post("/api/software/identity/", {}).status_code in (403, 405)
