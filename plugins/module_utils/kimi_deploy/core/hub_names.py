"""Names on the Hub: a repository id, a pinned revision, and the directory a snapshot is kept in.

Pure, so that input validation can check them without importing the downloader (``hf_fetch.py``).
"""

from __future__ import annotations

import re

from .errors import KimiDeployError

COMMIT_SHA_RE = re.compile(r"^[0-9a-f]{40}$")
REPO_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")


def validate_repo_id(repo_id: str) -> str:
    if not isinstance(repo_id, str) or not REPO_ID_RE.match(repo_id) or ".." in repo_id:
        raise KimiDeployError(f"repo_id {repo_id!r} is not '<org>/<name>' (letters, digits, '.', '_', '-')")
    return repo_id


def is_commit_sha(revision: str) -> bool:
    return bool(COMMIT_SHA_RE.match(revision or ""))


def model_dir_name(repo_id: str, revision_sha: str) -> str:
    """``moonshotai/Kimi-K3`` at ``9f62e4e...`` -> ``moonshotai--Kimi-K3@9f62e4e...``."""
    validate_repo_id(repo_id)
    if not is_commit_sha(revision_sha):
        raise KimiDeployError(f"revision {revision_sha!r} is not a 40-hex commit sha")
    return f"{repo_id.replace('/', '--')}@{revision_sha}"
