"""The parts of hf_fetch that need no server: names, tokens, manifests, disk space, progress, local sources.

The fetch itself runs against a real hub server in tests/integration/test_hub_fetch.py.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest
from huggingface_hub.hf_api import RepoFile, RepoFolder
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.hub_names import model_dir_name
from kimi_deploy.io.hf_fetch import (
    FetchRequest,
    ProgressFile,
    check_disk_space,
    detect_local_revision,
    expected_manifest,
    fetch_snapshot,
    progress_snapshot,
    read_token_file,
    remote_files_from_tree,
    required_bytes,
    scrub,
    stale_incomplete_files,
    use_local_source,
    write_json_atomic,
)
from kimi_deploy.io.weights_verify import EXPECTED_MANIFEST, parse_expected

SHA = "9f62e4e9fffbd0a83ddd60e1c209d828994b3569"


def test_model_dir_name():
    assert model_dir_name("moonshotai/Kimi-K3", SHA) == f"moonshotai--Kimi-K3@{SHA}"
    for repo in ("Kimi-K3", "a/b/c", "../x", "a/.."):
        with pytest.raises(KimiDeployError, match="is not '<org>/<name>'"):
            model_dir_name(repo, SHA)
    with pytest.raises(KimiDeployError, match="not a 40-hex commit"):
        model_dir_name("moonshotai/Kimi-K3", "main")


def test_token_file_must_be_private(tmp_path):
    path = tmp_path / "token"
    path.write_text("hf_secret\n")
    path.chmod(0o644)
    with pytest.raises(KimiDeployError, match=r"mode 0644.*chmod 600"):
        read_token_file(path)
    path.chmod(0o600)
    assert read_token_file(path) == "hf_secret"
    path.write_text("")
    with pytest.raises(KimiDeployError, match="empty"):
        read_token_file(path)
    assert scrub("GET ... Authorization: Bearer hf_secret", "hf_secret") == "GET ... Authorization: Bearer ***"
    assert scrub("no token", None) == "no token"


def test_tree_listing_becomes_the_verifier_manifest():
    entries = [
        RepoFile(path="model-00001-of-00002.safetensors", size=820880, oid="a" * 40,
                 lfs={"oid": "b" * 64, "size": 820880, "pointerSize": 131}),
        RepoFile(path="config.json", size=580, oid="c" * 40),
        RepoFolder(path="sub", oid="d" * 40),
    ]
    files = remote_files_from_tree(entries)
    assert [f.path for f in files] == ["config.json", "model-00001-of-00002.safetensors"]
    doc = expected_manifest("org/name", "main", SHA, files, endpoint="http://127.0.0.1:18090")
    assert doc["revision_sha"] == SHA and "token" not in json.dumps(doc)
    expected = parse_expected(json.loads(json.dumps(doc)))
    assert expected["config.json"].git_blob_sha1 == "c" * 40 and expected["config.json"].sha256 is None
    assert expected["model-00001-of-00002.safetensors"].sha256 == "b" * 64
    assert expected["model-00001-of-00002.safetensors"].size == 820880


def test_disk_space_is_refused_with_the_numbers(tmp_path):
    assert required_bytes(0) == 0
    assert required_bytes(100 * 1024**3) == 100 * 1024**3 + 2 * 1024**3  # 2 % of 100 GiB < 2 GiB floor
    assert required_bytes(1000 * 1024**3) == 1020 * 1024**3  # 2 % of 1000 GiB > 2 GiB floor
    # Other processes write to this disk too: compare free space within a generous tolerance.
    st = os.statvfs(tmp_path)
    facts = check_disk_space(tmp_path / "not" / "yet", 1024, headroom_bytes=0, headroom_ratio=0)
    assert facts["bytes_required"] == 1024
    assert abs(facts["bytes_free"] - st.f_bavail * st.f_frsize) < 1024**3
    exabyte = 10**18
    with pytest.raises(KimiDeployError) as err:
        check_disk_space(tmp_path, exabyte, headroom_bytes=0, headroom_ratio=0)
    match = re.search(r"= [\d.]+ GiB \((\d+) bytes\), and [\d.]+ GiB \((\d+) bytes\) is free", str(err.value))
    assert match and int(match.group(1)) == exabyte
    assert abs(int(match.group(2)) - st.f_bavail * st.f_frsize) < 1024**3
    # Partial files a killed run left behind count as free: they are deleted before fetching.
    free_now = facts["bytes_free"]
    check_disk_space(tmp_path, free_now + 1024**3, reclaimable=2 * 1024**3 + 1024**3, headroom_bytes=0,
                     headroom_ratio=0)


def _incomplete(work: Path, name: str, size: int, age: float = 0.0) -> Path:
    path = work / ".cache" / "huggingface" / "download" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    if age:
        past = time.time() - age
        os.utime(path, (past, past))
    return path


def test_progress_counts_finished_files_and_this_runs_partial_files(tmp_path):
    started = time.time()
    (tmp_path / "done.safetensors").write_bytes(b"d" * 300)
    (tmp_path / "short.safetensors").write_bytes(b"s" * 10)  # wrong size: not done
    _incomplete(tmp_path, "abc.etag.1234abcd.incomplete", 50)
    old = _incomplete(tmp_path, "abc.etag.0000ffff.incomplete", 70, age=3600)
    snap = progress_snapshot(tmp_path, {"done.safetensors": 300, "short.safetensors": 200, "x.json": 5},
                             started=started)
    assert (snap["files_done"], snap["files_total"]) == (1, 3)
    assert (snap["bytes_done"], snap["bytes_total"]) == (350, 505)
    assert stale_incomplete_files(tmp_path, before=started) == [old]


def test_progress_file_lifecycle(tmp_path):
    (tmp_path / "a").write_bytes(b"a" * 10)
    path = tmp_path / "progress.json"
    with ProgressFile(path, tmp_path, {"a": 10, "b": 20}, {"repo_id": "org/name"}, interval=0.05):
        first = json.loads(path.read_text())
        time.sleep(0.2)
    assert first["state"] == "downloading" and first["files_total"] == 2 and first["repo_id"] == "org/name"
    last = json.loads(path.read_text())
    assert last["state"] == "done" and last["bytes_done"] == 10 and last["updated_unix"] >= first["updated_unix"]
    with pytest.raises(RuntimeError), ProgressFile(path, tmp_path, {"a": 10}, {}, interval=10):
        raise RuntimeError("boom")
    assert json.loads(path.read_text())["state"] == "failed"


def test_write_json_atomic_mode(tmp_path):
    write_json_atomic(tmp_path / "x" / "doc.json", {"a": 1}, mode=0o600)
    assert json.loads((tmp_path / "x" / "doc.json").read_text()) == {"a": 1}
    assert (tmp_path / "x" / "doc.json").stat().st_mode & 0o777 == 0o600
    assert [p.name for p in (tmp_path / "x").iterdir()] == ["doc.json"]


def test_refetch_names_must_stay_inside_the_model(tmp_path):
    with pytest.raises(KimiDeployError, match="must be relative"):
        fetch_snapshot(FetchRequest("org/name", SHA, tmp_path, refetch=("../../etc/passwd",)))


def test_local_revision_detection(tmp_path):
    snap = tmp_path / "models--org--name" / "snapshots" / SHA
    snap.mkdir(parents=True)
    assert detect_local_revision(snap) == SHA
    assert detect_local_revision(tmp_path / f"org--name@{SHA}") == SHA
    plain = tmp_path / "plain"
    (plain / ".cache" / "huggingface" / "download").mkdir(parents=True)
    assert detect_local_revision(plain) is None
    (plain / ".cache" / "huggingface" / "download" / "config.json.metadata").write_text(f"{SHA}\netag\n1.0\n")
    assert detect_local_revision(plain) == SHA
    write_json_atomic(tmp_path / "m" / EXPECTED_MANIFEST, {"revision_sha": SHA, "files": {}})
    assert detect_local_revision(tmp_path / "m") == SHA


@pytest.fixture
def source(tmp_path):
    src = tmp_path / "nfs" / "Kimi"
    src.mkdir(parents=True)
    (src / "config.json").write_text("{}")
    (src / "model.safetensors").write_bytes(b"w" * 1000)
    write_json_atomic(src / EXPECTED_MANIFEST, {"revision_sha": SHA, "files": {"config.json": {"size": 2}}})
    return src


def test_local_source_in_place(source, tmp_path):
    result = use_local_source(source, repo_id="org/name", revision=None, models_dir=tmp_path / "models")
    assert result["path"] == str(source) and result["revision_sha"] == SHA and result["changed"] is False
    assert result["manifest_file"] == str(source / EXPECTED_MANIFEST)
    assert not (tmp_path / "models").exists()


def test_local_source_hardlink_and_copy(source, tmp_path):
    models = tmp_path / "models"
    planned = use_local_source(source, repo_id="org/name", revision=SHA, models_dir=models, mode="hardlink",
                               check_mode=True)
    assert planned["changed"] is True and not models.exists()
    linked = use_local_source(source, repo_id="org/name", revision=SHA, models_dir=models, mode="hardlink")
    dest = Path(linked["path"])
    assert dest.name == f"org--name@{SHA}" and linked["bytes_downloaded"] == 0  # same filesystem: no copy
    assert (dest / "model.safetensors").stat().st_ino == (source / "model.safetensors").stat().st_ino
    assert (dest / EXPECTED_MANIFEST).is_file() and linked["manifest_file"] == str(dest / EXPECTED_MANIFEST)
    assert use_local_source(source, repo_id="org/name", revision=SHA, models_dir=models,
                            mode="hardlink")["changed"] is False
    copied = use_local_source(source, repo_id="org/other", revision=SHA, models_dir=models, mode="copy")
    target = Path(copied["path"]) / "model.safetensors"
    assert target.stat().st_ino != (source / "model.safetensors").stat().st_ino
    assert target.read_bytes() == (source / "model.safetensors").read_bytes()
    assert copied["bytes_downloaded"] == sum((source / f).stat().st_size for f in copied["fetched_files"])


def test_local_source_needs_a_revision(tmp_path):
    (tmp_path / "src").mkdir()
    with pytest.raises(KimiDeployError, match="cannot tell which commit"):
        use_local_source(tmp_path / "src", repo_id="org/name", revision="main", models_dir=tmp_path)
    with pytest.raises(KimiDeployError, match="not a directory"):
        use_local_source(tmp_path / "none", repo_id="org/name", revision=SHA, models_dir=tmp_path)


def test_no_space_is_found_through_wrapping_exceptions():
    import errno

    from kimi_deploy.io.hf_fetch import _no_space

    try:
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError as inner:
            raise RuntimeError("download failed") from inner
    except RuntimeError as outer:
        assert _no_space(outer)
    assert not _no_space(OSError(errno.EACCES, "denied"))
    assert not _no_space(ValueError("x"))
