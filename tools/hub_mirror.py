#!/usr/bin/env python
"""A real hub-compatible server: olah 0.5.4 in offline mirror mode, serving git repos we build.

Used by the fetch tests, the demo and the molecule scenarios, so the weights reach test hosts the
way they reach GPU hosts: huggingface_hub against an endpoint (HF_ENDPOINT, a site mirror).

Command line (the demo and molecule use it):

    hub_mirror.py publish --mirrors DIR --repo kimi-deploy/tiny-llama --model-dir MODEL   # prints the sha
    hub_mirror.py serve --mirrors DIR --host 10.89.60.1 --port 18080 --pidfile FILE        # in the background
    hub_mirror.py stop --pidfile FILE

Library:

    with HubServer(workdir) as hub:
        repo = hub.repo("kimi-test/tiny-llama")
        sha1 = repo.commit_dir(model_v1, "v1", tag="v1.0")
        sha2 = repo.commit_dir(model_v2, "v2")
        hub.start()                       # then HfApi(endpoint=hub.url) works against it

Repos are plain git working trees under ``<workdir>/mirrors/models/<org>/<name>`` with hand-written
git-lfs pointers (no git-lfs binary): each ``*.safetensors`` is committed as its pointer text and
its bytes are placed in ``.git/lfs/objects/<oid[:2]>/<oid[2:4]>/<oid>``, where olah serves them
from. Every commit is a real commit, so revisions resolve to real shas. New commits are picked up
per request without a restart.

olah lives in its own venv (``KIMI_OLAH_VENV``, default /var/cache/kimi-deploy/venvs/olah-0.5.4):
it pins fastapi/pydantic/huggingface_hub versions of its own. Set-up:

    python3 -m venv /var/cache/kimi-deploy/venvs/olah-0.5.4
    /var/cache/kimi-deploy/venvs/olah-0.5.4/bin/pip install olah==0.5.4

Known gaps of olah 0.5.4 (see shared/reference/platform/hub-mirror.md): no HTTP Range (a resumed
download restarts), wrong error classes for a missing revision or file (401 RepositoryNotFound),
no private repos or token checks, no ``model_info()`` without a revision, no ``list_repo_commits``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

OLAH_VENV = Path(os.environ.get("KIMI_OLAH_VENV", "/var/cache/kimi-deploy/venvs/olah-0.5.4"))
PORTS = range(18090, 18100)  # this suite's loopback ports
LFS_SUFFIXES = (".safetensors",)
_GIT_ENV = {
    "GIT_AUTHOR_NAME": "kimi-deploy tests", "GIT_AUTHOR_EMAIL": "tests@kimi-deploy.invalid",
    "GIT_COMMITTER_NAME": "kimi-deploy tests", "GIT_COMMITTER_EMAIL": "tests@kimi-deploy.invalid",
    "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent",
    # Fixed dates: the same files committed on top of the same history give the same sha on every
    # machine and every run, so a published tiny model has a stable revision.
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+0000", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+0000",
}


def lfs_pointer(oid: str, size: int) -> bytes:
    """The git-lfs pointer text olah recognises (a blob of 121-149 bytes)."""
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize {size}\n".encode()


def git_blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


class MirrorRepo:
    def __init__(self, path: Path) -> None:
        self.path = path
        if not (path / ".git").is_dir():
            path.mkdir(parents=True, exist_ok=True)
            self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        proc = subprocess.run(["git", "-C", str(self.path), *args], capture_output=True, text=True,
                              env={**os.environ, **_GIT_ENV}, check=False)
        if proc.returncode:
            raise RuntimeError(f"git {' '.join(args)} failed: {proc.stderr.strip()}")
        return proc.stdout.strip()

    def _store_lfs(self, data_path: Path) -> bytes:
        sha = hashlib.sha256()
        with data_path.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                sha.update(chunk)
        oid = sha.hexdigest()
        obj = self.path / ".git" / "lfs" / "objects" / oid[:2] / oid[2:4] / oid
        if not obj.exists():
            obj.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(data_path, obj)
        return lfs_pointer(oid, data_path.stat().st_size)

    def commit_dir(self, source: Path, message: str, *, branch: str = "main", tag: str | None = None,
                   base: str | None = None) -> str:
        """Make the tree at ``branch`` exactly ``source``'s files; return the new commit sha.

        ``base`` starts a new branch from that revision.
        """
        if base is not None:
            self.git("checkout", "-q", "-B", branch, base)
        elif self._has_commits():
            self.git("checkout", "-q", branch)
        for child in self.path.iterdir():
            if child.name != ".git":
                shutil.rmtree(child) if child.is_dir() else child.unlink()
        for src in sorted(p for p in source.rglob("*") if p.is_file()):
            rel = src.relative_to(source)
            dst = self.path / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.name.endswith(LFS_SUFFIXES):
                dst.write_bytes(self._store_lfs(src))
            else:
                shutil.copyfile(src, dst)
        self.git("add", "-A")
        unchanged = self._has_commits() and subprocess.run(
            ["git", "-C", str(self.path), "diff", "--cached", "--quiet"], check=False).returncode == 0
        if not unchanged:
            self.git("commit", "-q", "-m", message)
        if tag:
            self.git("tag", tag)
        sha = self.git("rev-parse", "HEAD")
        if branch != "main":
            self.git("checkout", "-q", "main")
        return sha

    def _has_commits(self) -> bool:
        return subprocess.run(["git", "-C", str(self.path), "rev-parse", "--verify", "-q", "HEAD"],
                              capture_output=True, check=False).returncode == 0


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


class HubServer:
    def __init__(self, workdir: Path, port: int | None = None, host: str = "127.0.0.1",
                 mirrors: Path | None = None) -> None:
        self.workdir = workdir
        self.mirrors = mirrors or workdir / "mirrors"
        self.host = host
        self.port = port or free_port()
        self.url = f"http://{host}:{self.port}"
        self.log_dir = workdir / "logs"
        self.proc: subprocess.Popen | None = None
        self._probe: str | None = None

    def repo(self, repo_id: str) -> MirrorRepo:
        org, name = repo_id.split("/")
        if self._probe is None:
            self._probe = repo_id
        return MirrorRepo(self.mirrors / "models" / org / name)

    def start(self, timeout: float = 60.0) -> None:
        cli = OLAH_VENV / "bin" / "olah-cli"
        if not cli.exists():
            raise RuntimeError(f"olah is not installed at {OLAH_VENV}: python3 -m venv {OLAH_VENV} && "
                               f"{OLAH_VENV}/bin/pip install olah==0.5.4")
        self.log_dir.mkdir(parents=True, exist_ok=True)
        # mirrors-path and offline exist only in the TOML; offline stops olah probing the real Hub.
        config = self.workdir / "olah.toml"
        config.write_text(
            "[basic]\n"
            f'host = "{self.host}"\nport = {self.port}\n'
            f'repos-path = "{self.workdir / "cache"}"\n'
            f'mirrors-path = ["{self.mirrors}"]\n'
            f'mirror-netloc = "{self.host}:{self.port}"\nmirror-lfs-netloc = "{self.host}:{self.port}"\n'
            "[accessibility]\noffline = true\n")
        self.proc = subprocess.Popen([str(cli), "-c", str(config), "--log-path", str(self.log_dir)],
                                     stdout=(self.log_dir / "stdout.log").open("wb"),
                                     stderr=subprocess.STDOUT, start_new_session=True)
        # "/" answers 500 on starlette 1.x; a repo revision is the reliable readiness probe.
        probe = f"{self.url}/api/models/{self._probe}/revision/main"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"olah exited with {self.proc.returncode}: {self.log_tail()}")
            try:
                with urllib.request.urlopen(probe, timeout=2) as resp:
                    if resp.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"olah did not answer {probe} within {timeout:.0f} s: {self.log_tail()}")

    def log_tail(self, lines: int = 20) -> str:
        log = self.log_dir / "stdout.log"
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:]) if log.exists() else ""

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def __enter__(self) -> HubServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# --------------------------------------------------------------------------- command line


def _first_repo(mirrors: Path) -> str:
    for org in sorted((mirrors / "models").glob("*")):
        for name in sorted(org.glob("*")):
            if (name / ".git").is_dir():
                return f"{org.name}/{name.name}"
    raise SystemExit(f"no repo published under {mirrors}/models: run `publish` first")


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    parser = argparse.ArgumentParser(description="olah in offline mirror mode serving local git repos")
    sub = parser.add_subparsers(dest="command", required=True)
    pub = sub.add_parser("publish", help="commit a model directory to a mirror repo; print the commit sha")
    pub.add_argument("--mirrors", type=Path, required=True)
    pub.add_argument("--repo", required=True, help="org/name")
    pub.add_argument("--model-dir", type=Path, required=True)
    pub.add_argument("--message", default="publish model")
    srv = sub.add_parser("serve", help="start olah in the background and write its pid")
    srv.add_argument("--mirrors", type=Path, required=True)
    srv.add_argument("--workdir", type=Path, required=True, help="olah's cache, config and logs")
    srv.add_argument("--host", default="127.0.0.1")
    srv.add_argument("--port", type=int, required=True)
    srv.add_argument("--pidfile", type=Path, required=True)
    stop = sub.add_parser("stop", help="stop the server started with serve")
    stop.add_argument("--pidfile", type=Path, required=True)
    args = parser.parse_args(argv)

    if args.command == "publish":
        org, name = args.repo.split("/")
        sha = MirrorRepo(args.mirrors / "models" / org / name).commit_dir(args.model_dir, args.message)
        print(sha)
    elif args.command == "serve":
        _stop(args.pidfile)
        server = HubServer(args.workdir, port=args.port, host=args.host, mirrors=args.mirrors)
        server._probe = _first_repo(args.mirrors)
        server.start()
        args.pidfile.write_text(str(server.proc.pid))
        print(json.dumps({"url": server.url, "pid": server.proc.pid}))
    else:
        _stop(args.pidfile)
    return 0


def _stop(pidfile: Path) -> None:
    if not pidfile.exists():
        return
    with contextlib.suppress(ProcessLookupError, ValueError):
        os.killpg(int(pidfile.read_text()), signal.SIGTERM)
    pidfile.unlink()


if __name__ == "__main__":
    raise SystemExit(main())
