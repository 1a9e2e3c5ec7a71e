"""A per-host deploy lock: one deploy (or rollback) at a time changes a host.

The lock is a small JSON file created with O_EXCL, so exactly one of two racing deploys makes it.
It names its holder (controller, user, process, start time) so the one that waits can say who
holds it. A holder that died without releasing it leaves a lock older than ``stale_after_s``,
which the next deploy takes over, saying so. It lives in /run/lock: a reboot clears it.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .errors import KimiDeployError


def _read(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {"owner": "unreadable lock file", "acquired_at": 0}


def _try_create(path: Path, record: Mapping[str, Any]) -> bool:
    """Create the lock with its content in one step (link of a finished file), or return False.

    Creating it empty and writing after would let a racer read an empty lock, think it stale, and
    take it over: two holders.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    tmp.write_text(json.dumps(dict(record)), encoding="utf-8")
    try:
        os.link(tmp, path)
        return True
    except FileExistsError:
        return False
    finally:
        tmp.unlink(missing_ok=True)


def _take_over(path: Path) -> bool:
    """Move a stale lock aside; only one of several racers can (rename is atomic)."""
    aside = path.with_name(f".{path.name}.stale.{os.getpid()}.{threading.get_ident()}")
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        return False
    aside.unlink(missing_ok=True)
    return True


def acquire(path: str | Path, owner: str, *, timeout_s: float, stale_after_s: float, interval_s: float = 2.0,
            break_lock: bool = False, clock: Callable[[], float] = time.time,
            sleep: Callable[[float], None] = time.sleep) -> dict[str, Any]:
    """Take the lock for ``owner``, waiting up to ``timeout_s``; return what happened.

    Re-acquiring a lock this owner already holds succeeds (a retried task must not deadlock itself).
    ``break_lock`` takes over whatever lock is there at once: for the operator who knows its holder
    died (an interrupted deploy), and says so.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    started = clock()
    waited_for = None
    if break_lock:
        holder = _read(path)
        _take_over(path)
        if holder and holder.get("owner") != owner:
            result = acquire(path, owner, timeout_s=timeout_s, stale_after_s=stale_after_s, interval_s=interval_s,
                             clock=clock, sleep=sleep)
            return {**result, "took_over": {"owner": holder.get("owner"),
                                            "age_s": round(clock() - float(holder.get("acquired_at") or 0))}}
    while True:
        if _try_create(path, {"owner": owner, "acquired_at": clock()}):
            return {"acquired": True, "waited_s": round(clock() - started, 1), "waited_for": waited_for,
                    "took_over": None}
        holder = _read(path)
        if holder is None:
            continue  # released between our attempt and the read
        if holder.get("owner") == owner:
            return {"acquired": True, "waited_s": 0.0, "waited_for": None, "took_over": None}
        age = clock() - float(holder.get("acquired_at") or 0)
        if age > stale_after_s:
            _take_over(path)
            if _try_create(path, {"owner": owner, "acquired_at": clock()}):
                return {"acquired": True, "waited_s": round(clock() - started, 1), "waited_for": waited_for,
                        "took_over": {"owner": holder.get("owner"), "age_s": round(age)}}
            continue
        waited_for = holder.get("owner")
        if clock() - started >= timeout_s:
            raise KimiDeployError(
                f"another deploy holds {path}: {holder.get('owner')}, for {age:.0f} s. Waited {timeout_s:.0f} s. "
                f"Let it finish and run again; if you know it died (an interrupted run), run again with "
                f"-e kimi_preflight_lock_break=true (it is also taken over after {stale_after_s:.0f} s)."
            )
        sleep(interval_s)


def release(path: str | Path, owner: str) -> bool:
    """Remove the lock if ``owner`` holds it; True when it did."""
    path = Path(path)
    holder = _read(path)
    if holder is None or holder.get("owner") != owner:
        return False
    path.unlink(missing_ok=True)
    return True
