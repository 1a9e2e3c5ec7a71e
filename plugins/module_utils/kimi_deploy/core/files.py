"""Atomic file writes: readers see the old file or the new one, never half of one.

The content goes to a unique temporary file in the same directory, gets its mode, then replaces
the target with one rename. Used for release.json, the fetch progress and manifest, acceptance
results and reports.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def write_atomic(path: str | Path, data: bytes | str, mode: int = 0o644) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_json_atomic(path: str | Path, doc: Mapping[str, Any], mode: int = 0o644, indent: int = 2) -> None:
    write_atomic(path, json.dumps(doc, indent=indent, sort_keys=True) + "\n", mode)


def dig(mapping: Any, *path: str) -> Any:
    """``mapping[path[0]][path[1]]...``, or None as soon as a level is missing or not a mapping."""
    for key in path:
        if not isinstance(mapping, Mapping):
            return None
        mapping = mapping.get(key)
    return mapping
