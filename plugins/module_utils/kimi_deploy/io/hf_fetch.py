"""Fetch a model at a pinned revision into ``<root>/shared/models/<org>--<name>@<sha>``.

The transfer itself is huggingface_hub's ``snapshot_download`` (imported lazily, so the rest of
this file and its tests need only the standard library). Around it this module adds what a
deploy needs and the client does not do:

- the revision (branch, tag or sha) is resolved to a commit sha once, and everything after uses
  the sha, so a branch that moves mid-download cannot mix two revisions; the directory is named
  by the sha, so two releases of the same revision share it;
- the expected sha256 of every LFS file (and the git blob sha1 of every small file) comes from the
  tree listing at that sha and is written next to the weights for ``weights_verify``;
- free disk space is checked before anything is fetched (bytes still to fetch plus headroom),
  and the fetch is refused with the numbers when it is short;
- a download goes into ``<dir>.partial`` and is renamed when complete, so nothing ever points at a
  half-fetched tree; rerunning after a kill fetches only the files that did not finish
  (huggingface_hub restarts an interrupted file from zero: its temporary names are per process);
- named files can be re-fetched alone (after a failed verification), and a named file that does
  not exist at the pinned sha is removed (an extra shard left by another revision);
- a JSON progress file (files and bytes done/total, rate, ETA, updated time) is rewritten every
  few seconds for the operator to watch;
- the token is only ever passed to huggingface_hub in memory; read from a file it must be 0600,
  and it is scrubbed from every error message.

huggingface_hub 2.x: ``HF_ENDPOINT`` is read once at import, but every call here also passes
``endpoint=`` explicitly, which 2.4 honours for the API and the file URLs alike, so the mirror is
used even when the library was imported first. hf_transfer is no longer used by 2.x; hf_xet is used
automatically when installed and the server offers Xet storage (``HF_XET_HIGH_PERFORMANCE=1``
raises its concurrency).
"""

from __future__ import annotations

import contextlib
import errno
import inspect
import json
import os
import shutil
import stat
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from ..core.errors import KimiDeployError
from ..core.files import write_json_atomic
from ..core.hub_names import is_commit_sha, model_dir_name, validate_repo_id
from .weights_verify import EXPECTED_MANIFEST, list_model_files, relative_name

DEFAULT_HEADROOM_BYTES = 2 * 1024**3
DEFAULT_HEADROOM_RATIO = 0.02
PARTIAL_SUFFIX = ".partial"
_HUB_DOWNLOAD_DIR = Path(".cache") / "huggingface" / "download"


# --------------------------------------------------------------------------- names and secrets

def read_token_file(path: str | Path) -> str:
    """The token in ``path``, refused unless only its owner can read it (mode 0600 or 0400)."""
    path = Path(path)
    try:
        st = path.stat()
    except OSError as err:
        raise KimiDeployError(f"token_file {path}: {err.strerror}") from err
    if stat.S_IMODE(st.st_mode) & 0o077:
        raise KimiDeployError(f"token_file {path} has mode {stat.S_IMODE(st.st_mode):04o}; a token file must "
                              "be readable by its owner only: chmod 600 it")
    token = path.read_text(encoding="utf-8").strip()
    if not token:
        raise KimiDeployError(f"token_file {path} is empty")
    return token


def scrub(text: str, secret: str | None) -> str:
    """``text`` with ``secret`` replaced, for messages that may quote a request."""
    if secret:
        text = text.replace(secret, "***")
    return text


# --------------------------------------------------------------------------- remote listing

@dataclass(frozen=True)
class RemoteFile:
    path: str
    size: int
    sha256: str | None = None       # LFS files: the Hub's sha256 of the content
    git_blob_sha1: str | None = None  # other files: git's blob id

    def expected(self) -> dict:
        entry: dict = {"size": self.size}
        if self.sha256:
            entry["sha256"] = self.sha256
        elif self.git_blob_sha1:
            entry["git_blob_sha1"] = self.git_blob_sha1
        return entry


def remote_files_from_tree(entries: Iterable[object]) -> list[RemoteFile]:
    """``list_repo_tree`` entries -> RemoteFile, folders dropped."""
    out = []
    for entry in entries:
        size = getattr(entry, "size", None)
        if size is None or not hasattr(entry, "blob_id"):
            continue  # a RepoFolder
        lfs = getattr(entry, "lfs", None)
        sha256 = getattr(lfs, "sha256", None) if lfs is not None else None
        out.append(RemoteFile(entry.path, int(size), sha256, None if sha256 else entry.blob_id))
    return sorted(out, key=lambda f: f.path)


def expected_manifest(repo_id: str, revision: str, revision_sha: str, files: Iterable[RemoteFile],
                      endpoint: str | None = None) -> dict:
    """The JSON document ``weights_verify.parse_expected`` reads (never holds the token)."""
    return {
        "repo_id": repo_id,
        "revision": revision,
        "revision_sha": revision_sha,
        "endpoint": endpoint,
        "files": {f.path: f.expected() for f in sorted(files, key=lambda f: f.path)},
    }


# --------------------------------------------------------------------------- disk space

def required_bytes(bytes_to_fetch: int, *, headroom_bytes: int = DEFAULT_HEADROOM_BYTES,
                   headroom_ratio: float = DEFAULT_HEADROOM_RATIO) -> int:
    """Bytes that must be free: the download, plus the larger of a fixed and a relative headroom."""
    if bytes_to_fetch <= 0:
        return 0
    return bytes_to_fetch + max(headroom_bytes, int(bytes_to_fetch * headroom_ratio))


def free_bytes(path: str | Path) -> int:
    """Free bytes for an unprivileged writer on the filesystem that holds (or will hold) ``path``."""
    probe = Path(path)
    while not probe.exists():
        probe = probe.parent
    st = os.statvfs(probe)
    return st.f_bavail * st.f_frsize


def check_disk_space(path: str | Path, bytes_to_fetch: int, *, reclaimable: int = 0,
                     headroom_bytes: int = DEFAULT_HEADROOM_BYTES,
                     headroom_ratio: float = DEFAULT_HEADROOM_RATIO) -> dict:
    """Raise with the numbers when ``path``'s filesystem cannot take the download; else return them."""
    need = required_bytes(bytes_to_fetch, headroom_bytes=headroom_bytes, headroom_ratio=headroom_ratio)
    free = free_bytes(path) + reclaimable
    facts = {"bytes_to_fetch": bytes_to_fetch, "bytes_required": need, "bytes_free": free}
    if free < need:
        raise KimiDeployError(
            f"not enough disk space under {path}: the download needs {_gib(bytes_to_fetch)} plus "
            f"{_gib(need - bytes_to_fetch)} headroom = {_gib(need)} ({need} bytes), and {_gib(free)} "
            f"({free} bytes) is free. Free {_gib(need - free)} or point kimi_root at a larger filesystem")
    return facts


def _gib(n: int) -> str:
    return f"{n / 1024**3:.2f} GiB"


# --------------------------------------------------------------------------- progress

def stale_incomplete_files(work_dir: Path, before: float | None = None) -> list[Path]:
    """Partial downloads huggingface_hub left behind (a killed run); they can never be resumed."""
    folder = work_dir / _HUB_DOWNLOAD_DIR
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*.incomplete")
                  if p.is_file() and (before is None or p.stat().st_mtime < before))


def progress_snapshot(work_dir: Path, sizes: Mapping[str, int], *, started: float,
                      bytes_present_at_start: int = 0) -> dict:
    """Files and bytes done, counting files finished in place and bytes in this run's partial files."""
    files_done = bytes_done = 0
    for name, size in sizes.items():
        try:
            if (work_dir / name).stat().st_size == size:
                files_done += 1
                bytes_done += size
        except OSError:
            pass
    folder = work_dir / _HUB_DOWNLOAD_DIR
    in_flight = 0
    if folder.is_dir():
        for part in folder.rglob("*.incomplete"):
            try:
                st = part.stat()
            except OSError:
                continue  # renamed into place between the listing and the stat
            if st.st_mtime >= started - 1:
                in_flight += st.st_size
    total = sum(sizes.values())
    done = min(total, bytes_done + in_flight)
    elapsed = max(time.time() - started, 1e-6)
    rate = max(done - bytes_present_at_start, 0) / elapsed
    return {
        "files_done": files_done,
        "files_total": len(sizes),
        "bytes_done": done,
        "bytes_total": total,
        "bytes_per_second": round(rate),
        "eta_seconds": round((total - done) / rate) if rate > 0 and done < total else None,
    }


class ProgressFile:
    """Rewrites a JSON progress file every ``interval`` seconds while a download runs.

    Watch it with ``watch -n5 cat <file>`` (or ``jq``); ``state`` ends as ``done`` or ``failed``.
    """

    def __init__(self, path: Path, work_dir: Path, sizes: Mapping[str, int], static: Mapping,
                 interval: float = 5.0) -> None:
        self.path, self.work_dir, self.sizes = path, work_dir, dict(sizes)
        self.static, self.interval = dict(static), interval
        self.started = time.time()
        self.present = progress_snapshot(work_dir, sizes, started=self.started)["bytes_done"]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kimi-progress", daemon=True)

    def write(self, state: str, **extra: object) -> None:
        doc = dict(self.static, state=state, pid=os.getpid(),
                   updated=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                   updated_unix=round(time.time(), 3), started_unix=round(self.started, 3), **extra)
        doc.update(progress_snapshot(self.work_dir, self.sizes, started=self.started,
                                     bytes_present_at_start=self.present))
        with contextlib.suppress(OSError):  # progress is a courtesy: never fail a download over it
            write_json_atomic(self.path, doc)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.write("downloading")

    def __enter__(self) -> ProgressFile:
        self.write("downloading")
        self._thread.start()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self._stop.set()
        self._thread.join()
        if exc is None:
            self.write("done")
        else:
            self.write("failed", error=type(exc).__name__)


# --------------------------------------------------------------------------- huggingface_hub

def _hub():
    """Import huggingface_hub only when a fetch actually needs it (the verify path never does)."""
    try:
        import huggingface_hub
    except ImportError as err:
        raise KimiDeployError("huggingface_hub is not installed in this python: run kimi_hf_snapshot with "
                              "the release venv's python (ansible_python_interpreter)") from err
    if "dry_run" not in inspect.signature(huggingface_hub.snapshot_download).parameters:
        raise KimiDeployError(f"huggingface_hub {huggingface_hub.__version__} is too old (no snapshot_download "
                              "dry_run); use the release venv, which has 2.x")
    huggingface_hub.utils.disable_progress_bars()  # stdout/stderr of a module are not a terminal
    return huggingface_hub


class HubRepo:
    """One model repo on a hub or mirror, with the token kept out of every message."""

    def __init__(self, repo_id: str, *, endpoint: str | None = None, token: str | None = None) -> None:
        self.repo_id = validate_repo_id(repo_id)
        self.endpoint = endpoint.rstrip("/") if endpoint else None
        self.token = token
        self.hub = _hub()
        self.api = self.hub.HfApi(endpoint=self.endpoint, token=token)

    def _error(self, err: Exception, doing: str) -> KimiDeployError:
        errors = self.hub.errors
        where = self.endpoint or "the Hub"
        if isinstance(err, errors.RevisionNotFoundError):
            hint = "the revision does not exist: check the branch, tag or sha"
        elif isinstance(err, errors.GatedRepoError):
            hint = "the repo is gated: accept its terms on the Hub with the token's account"
        elif isinstance(err, errors.RepositoryNotFoundError):
            # Mirrors (olah) answer 401/RepositoryNotFound for a wrong revision too.
            hint = "repo or revision not found, or the token has no access: check repo_id, revision, token"
        elif isinstance(err, (errors.EntryNotFoundError, errors.RemoteEntryNotFoundError)):
            hint = "a file is not in the repo at that revision"
        elif isinstance(err, errors.LocalEntryNotFoundError):
            hint = f"{where} could not be reached or did not answer: check the endpoint and the network"
        else:
            hint = "check the endpoint, the network and the token"
        text = scrub(f"{type(err).__name__}: {err}", self.token).splitlines()[0][:300]
        return KimiDeployError(f"{doing} {self.repo_id} on {where} failed ({text}); {hint}")

    def resolve(self, revision: str) -> str:
        """A branch, tag or sha -> the commit sha the repo has for it now."""
        if is_commit_sha(revision):
            return revision
        try:
            info = self.api.model_info(self.repo_id, revision=revision)
            if info.sha and is_commit_sha(info.sha):
                return info.sha
            refs = self.api.list_repo_refs(self.repo_id)
        except Exception as err:
            raise self._error(err, f"resolving revision {revision!r} of") from err
        for ref in [*refs.branches, *refs.tags]:
            if revision in (ref.name, ref.ref):
                return ref.target_commit
        raise KimiDeployError(f"revision {revision!r} of {self.repo_id} is neither a branch nor a tag")

    def list_files(self, revision_sha: str, allow_patterns: Sequence[str] | None = None,
                   ignore_patterns: Sequence[str] | None = None) -> list[RemoteFile]:
        try:
            entries = self.api.list_repo_tree(self.repo_id, recursive=True, revision=revision_sha)
            files = remote_files_from_tree(entries)
        except Exception as err:
            raise self._error(err, f"listing files at {revision_sha} of") from err
        keep = set(self.hub.utils.filter_repo_objects([f.path for f in files], allow_patterns=allow_patterns,
                                                      ignore_patterns=ignore_patterns))
        return [f for f in files if f.path in keep]

    def pending(self, revision_sha: str, work_dir: Path, allow_patterns: Sequence[str] | None,
                ignore_patterns: Sequence[str] | None) -> dict[str, int]:
        """Files snapshot_download would fetch into ``work_dir`` (its own dry run), name -> size."""
        try:
            plan = self.hub.snapshot_download(
                self.repo_id, revision=revision_sha, local_dir=str(work_dir), allow_patterns=allow_patterns,
                ignore_patterns=ignore_patterns, token=self.token, endpoint=self.endpoint, dry_run=True)
        except Exception as err:
            raise self._error(err, "planning the download of") from err
        return {info.filename: int(info.file_size or 0) for info in plan if info.will_download}

    def download(self, revision_sha: str, work_dir: Path, allow_patterns: Sequence[str] | None,
                 ignore_patterns: Sequence[str] | None, max_workers: int) -> None:
        try:
            self.hub.snapshot_download(
                self.repo_id, revision=revision_sha, local_dir=str(work_dir), allow_patterns=allow_patterns,
                ignore_patterns=ignore_patterns, max_workers=max_workers, token=self.token,
                endpoint=self.endpoint)
        except Exception as err:
            raise self._error(err, "downloading") from err

    def redownload(self, revision_sha: str, work_dir: Path, names: Sequence[str], max_workers: int) -> None:
        """Fetch ``names`` again even though the local copies look current (they failed verification)."""
        def one(name: str) -> None:
            self.hub.hf_hub_download(self.repo_id, name, revision=revision_sha, local_dir=str(work_dir),
                                     force_download=True, token=self.token, endpoint=self.endpoint)
        try:
            with ThreadPoolExecutor(max_workers=max(1, max_workers)) as pool:
                list(pool.map(one, names))
        except Exception as err:
            raise self._error(err, f"re-fetching {', '.join(names)} of") from err


# --------------------------------------------------------------------------- the fetch

@dataclass
class FetchRequest:
    repo_id: str
    revision: str
    models_dir: Path
    endpoint: str | None = None
    token: str | None = None
    allow_patterns: list[str] | None = None
    ignore_patterns: list[str] | None = None
    max_workers: int = 8
    refetch: tuple[str, ...] = ()
    headroom_bytes: int = DEFAULT_HEADROOM_BYTES
    headroom_ratio: float = DEFAULT_HEADROOM_RATIO
    progress_path: Path | None = None
    progress_interval: float = 5.0


def fetch_snapshot(req: FetchRequest, *, check_mode: bool = False) -> dict:
    """Resolve, plan, check space, download (unless ``check_mode``), and describe what happened."""
    refetch = [relative_name(n, "refetch") for n in req.refetch]
    repo = HubRepo(req.repo_id, endpoint=req.endpoint, token=req.token)
    sha = repo.resolve(req.revision)
    remote = repo.list_files(sha, req.allow_patterns, req.ignore_patterns)
    if not remote:
        raise KimiDeployError(f"{req.repo_id} at {sha} has no files matching allow_patterns "
                              f"{req.allow_patterns} / ignore_patterns {req.ignore_patterns}")
    sizes = {f.path: f.size for f in remote}
    final = Path(req.models_dir) / model_dir_name(req.repo_id, sha)
    work = final if final.is_dir() else final.with_name(final.name + PARTIAL_SUFFIX)

    pending = repo.pending(sha, work, req.allow_patterns, req.ignore_patterns) if work.is_dir() else dict(sizes)
    unknown = [n for n in refetch if n not in sizes and not (work / n).exists()]
    if unknown:
        raise KimiDeployError(f"refetch names {unknown}, which are neither in {req.repo_id} at {sha} "
                              "(after allow/ignore patterns) nor on disk")
    forced = sorted(n for n in refetch if n in sizes and n not in pending)
    to_remove = sorted(n for n in refetch if n not in sizes)
    fetch_sizes = {**pending, **{n: sizes[n] for n in forced}}
    stale = stale_incomplete_files(work)
    space = check_disk_space(req.models_dir, sum(fetch_sizes.values()),
                             reclaimable=sum(p.stat().st_size for p in stale),
                             headroom_bytes=req.headroom_bytes, headroom_ratio=req.headroom_ratio)
    result = {
        "path": str(final),
        "repo_id": req.repo_id,
        "revision": req.revision,
        "revision_sha": sha,
        "files": sorted(sizes),
        "bytes_total": sum(sizes.values()),
        "fetched_files": sorted(fetch_sizes),
        "removed_files": to_remove,
        "bytes_downloaded": sum(fetch_sizes.values()),
        "manifest_file": str(final / EXPECTED_MANIFEST),
        "transfer": "hf_xet (when the server offers Xet)" if _xet_installed() else "http",
        **space,
    }
    result["changed"] = bool(fetch_sizes or to_remove or work != final)
    if check_mode:
        return result

    for part in stale:
        part.unlink(missing_ok=True)
    for name in to_remove:
        (work / name).unlink(missing_ok=True)
    progress_path = req.progress_path or final.with_name(final.name + ".progress.json")
    static = {"repo_id": req.repo_id, "revision_sha": sha, "path": str(final)}
    with ProgressFile(progress_path, work, sizes, static, req.progress_interval) as progress:
        work.mkdir(parents=True, exist_ok=True)
        try:
            if pending:
                repo.download(sha, work, req.allow_patterns, req.ignore_patterns, req.max_workers)
            if forced:
                repo.redownload(sha, work, forced, req.max_workers)
        except Exception as err:  # huggingface_hub wraps OS errors in its own types
            if _no_space(err):
                raise KimiDeployError(
                    f"the disk filled up during the download into {work} ({_gib(free_bytes(work))} free now, "
                    f"{_gib(sum(fetch_sizes.values()))} to fetch). Free space and run again: finished files "
                    "are kept and not fetched again; nothing that serves was touched") from err
            raise
        missing = [n for n, size in sizes.items() if not _has_size(work / n, size)]
        if missing:
            raise KimiDeployError(f"after the download {len(missing)} file(s) are missing or of the wrong "
                                  f"size in {work}: {missing[:5]}; run the fetch again")
        write_json_atomic(work / EXPECTED_MANIFEST,
                          expected_manifest(req.repo_id, req.revision, sha, remote, req.endpoint))
        if work != final:
            _rename_into_place(work, final)
            progress.work_dir = final  # the last record counts the files where they now are
    result["progress_file"] = str(progress_path)
    return result


def _no_space(err: BaseException) -> bool:
    """ENOSPC anywhere in the exception chain (huggingface_hub re-raises its own errors from it)."""
    seen = 0
    while err is not None and seen < 10:
        if isinstance(err, OSError) and err.errno == errno.ENOSPC:
            return True
        err, seen = err.__cause__ or err.__context__, seen + 1
    return False


def _has_size(path: Path, size: int) -> bool:
    try:
        return path.stat().st_size == size
    except OSError:
        return False


def _rename_into_place(work: Path, final: Path) -> None:
    try:
        os.rename(work, final)
    except OSError as err:
        raise KimiDeployError(f"cannot rename {work} to {final} ({err.strerror}): another fetch of the same "
                              "revision finished first? Remove the .partial directory and run again") from err


def _xet_installed() -> bool:
    try:
        import hf_xet  # noqa: F401
    except ImportError:
        return False
    return True


# --------------------------------------------------------------------------- a path on the host

LOCAL_MODES = ("in_place", "hardlink", "copy")


def detect_local_revision(path: str | Path) -> str | None:
    """The commit sha a local model directory was fetched at, when it says so anywhere."""
    path = Path(path)
    for name in (path.name, path.name.rsplit("@", 1)[-1]):
        if is_commit_sha(name):  # a huggingface cache snapshots/<sha>, or <repo>@<sha>
            return name
    manifest = path / EXPECTED_MANIFEST
    if manifest.is_file():
        try:
            sha = json.loads(manifest.read_text(encoding="utf-8")).get("revision_sha")
        except (OSError, ValueError, AttributeError):
            sha = None
        if isinstance(sha, str) and is_commit_sha(sha):
            return sha
    # huggingface_hub local_dir downloads keep "<commit>\n<etag>\n<time>" per file.
    shas = set()
    folder = path / _HUB_DOWNLOAD_DIR
    if folder.is_dir():
        for meta in folder.rglob("*.metadata"):
            first = meta.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0].strip()
            if is_commit_sha(first):
                shas.add(first)
    return shas.pop() if len(shas) == 1 else None


def use_local_source(source: str | Path, *, repo_id: str, revision: str | None, models_dir: str | Path,
                     mode: str = "in_place", check_mode: bool = False) -> dict:
    """Use weights already on the host (an NFS export, a copy pushed from the controller).

    ``in_place`` verifies and serves them where they are; ``hardlink`` and ``copy`` place them in
    ``models_dir`` under the usual ``<org>--<name>@<sha>`` name (hardlinks fall back to a copy
    across filesystems).
    """
    if mode not in LOCAL_MODES:
        raise KimiDeployError(f"source mode {mode!r} is not one of {', '.join(LOCAL_MODES)}")
    src = Path(source)
    if not src.is_dir():
        raise KimiDeployError(f"source_path {src} is not a directory on this host")
    sha = revision if revision and is_commit_sha(revision) else detect_local_revision(src)
    if sha is None:
        raise KimiDeployError(f"cannot tell which commit {src} holds: pass revision as the 40-hex commit sha "
                              "the files were taken from")
    files = list_model_files(src)
    manifest = src / EXPECTED_MANIFEST
    if manifest.is_file():
        files.append(EXPECTED_MANIFEST.as_posix())
    result = {"repo_id": repo_id, "revision": revision or sha, "revision_sha": sha, "files": files,
              "bytes_total": sum((src / f).stat().st_size for f in files), "source_path": str(src),
              "manifest_file": str(manifest) if manifest.is_file() else None}
    if mode == "in_place":
        return {**result, "path": str(src), "changed": False, "bytes_downloaded": 0, "fetched_files": []}
    final = Path(models_dir) / model_dir_name(repo_id, sha)
    if final.resolve() == src.resolve():
        return {**result, "path": str(final), "changed": False, "bytes_downloaded": 0, "fetched_files": []}
    todo = [f for f in files if not _has_size(final / f, (src / f).stat().st_size)]
    same_fs = _device(final) == src.stat().st_dev
    copy_bytes = 0 if mode == "hardlink" and same_fs else sum((src / f).stat().st_size for f in todo)
    space = check_disk_space(models_dir, copy_bytes, headroom_bytes=0)
    result.update(path=str(final), fetched_files=todo, bytes_downloaded=copy_bytes, changed=bool(todo),
                  manifest_file=str(final / EXPECTED_MANIFEST) if manifest.is_file() else None, **space)
    if check_mode or not todo:
        return result
    work = final if final.is_dir() else final.with_name(final.name + PARTIAL_SUFFIX)
    for name in todo:
        target = work / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.unlink(missing_ok=True)
        if mode == "hardlink" and same_fs:
            os.link(src / name, target)
        else:
            shutil.copy2(src / name, target)
    if work != final:
        _rename_into_place(work, final)
    return result


def _device(path: Path) -> int:
    probe = path
    while not probe.exists():
        probe = probe.parent
    return probe.stat().st_dev
