"""A per-host deploy lock: one deploy (or rollback, or tune) at a time changes a host.

The lock is a small JSON file in a root-only directory (``/run/kimi-deploy``, cleared by a
reboot). It names its holder (``owner``: controller, user, play, start time) so the one that waits
can say who holds it, and carries ``run_id``, a token unique to the run: only that run refreshes
or releases it.

The holder is ansible-playbook on the controller, which the host cannot check, so the holder
proves it is alive: during its long tasks (venv build, weights fetch and verify, health wait,
acceptance) the modules rewrite the lock's ``heartbeat_at`` every ``interval_s``
(:func:`keep_alive`). A lock whose heartbeat is older than ``stale_after_s`` was left by a run
that died; the next run takes it over and says so.

Safety, in order:

* The directory must be a real directory (not a symlink), owned by the user the module runs as
  (root) and closed to group and others (0700); otherwise the lock is refused. Every file
  operation is relative to that directory's descriptor, so it cannot be swapped underneath.
* A lock is created as a finished file (written to a unique name with
  ``O_CREAT|O_EXCL|O_NOFOLLOW``, then hard-linked to the lock name, which fails if anything is
  there, a symlink included), so no one ever reads a half-written lock.
* A lock that is a symlink, not a regular file, not ours (owner uid), not JSON, without an owner
  or run_id, or with a timestamp in the future (beyond ``skew_s``) is invalid: the run stops,
  naming the file and why; only ``break_lock`` replaces it.
* Changes (create, take over, heartbeat, release) are made under ``flock`` on the directory, which
  the kernel drops when a process dies, so it is never stale itself. Staleness is judged on a read
  made outside it; the takeover then renames the lock to a unique name, reads it again and
  compares it with the stale holder seen, and puts it back if it differs (a racer's fresh lock, or
  a heartbeat that came after all).
"""

from __future__ import annotations

import errno
import fcntl
import json
import math
import os
import stat
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import KimiDeployError

DEFAULT_STALE_AFTER_S = 900.0
DEFAULT_HEARTBEAT_S = 60.0
DEFAULT_SKEW_S = 60.0
_MAX_BYTES = 64 * 1024


class LockLost(KimiDeployError):
    """The lock is no longer this run's: released or removed (``held_by`` None), or taken over."""

    def __init__(self, msg: str, held_by: str | None = None):
        super().__init__(msg)
        self.held_by = held_by


@dataclass(frozen=True)
class Seen:
    """One read of the lock file: its identity, and either a valid record or why it is invalid."""

    ident: tuple[int, int]
    record: Mapping[str, Any] = field(default_factory=dict)
    invalid: str | None = None

    @property
    def owner(self) -> str:
        return str(self.record.get("owner", "?")) if self.invalid is None else f"an invalid lock ({self.invalid})"

    @property
    def run_id(self) -> str | None:
        return self.record.get("run_id") if self.invalid is None else None

    def heartbeat_age(self, now: float) -> float:
        return now - float(self.record["heartbeat_at"])


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def validate(record: Any, now: float, skew_s: float = DEFAULT_SKEW_S) -> str | None:
    """Why ``record`` is not a lock this tool wrote, or None when it is."""
    if not isinstance(record, dict):
        return "not a JSON object"
    for key in ("owner", "run_id"):
        if not isinstance(record.get(key), str) or not record[key].strip():
            return f"no {key}"
    for key in ("acquired_at", "heartbeat_at"):
        if not _number(record.get(key)):
            return f"{key} is not a number"
        if record[key] > now + skew_s:
            return f"{key} is {record[key] - now:.0f} s in the future"
    return None


def _open_dir(directory: Path, *, create: bool) -> int:
    """Open the lock directory, creating it 0700 if asked; refuse one others could write into."""
    if create:
        try:
            os.mkdir(directory, 0o700)
        except FileExistsError:
            pass
        except OSError as err:
            raise KimiDeployError(f"cannot create the lock directory {directory}: {err.strerror}") from err
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as err:
        if err.errno in (errno.ELOOP, errno.ENOTDIR):
            raise KimiDeployError(
                f"the lock directory {directory} is a symlink or not a directory; someone else may have planted "
                f"it. Remove it (it is recreated 0700 root) or set kimi_preflight_lock_path elsewhere.") from err
        raise KimiDeployError(f"cannot open the lock directory {directory}: {err.strerror}") from err
    st = os.fstat(fd)
    problem = None
    if st.st_uid != os.geteuid():
        problem = f"is owned by uid {st.st_uid}, not {os.geteuid()}"
    elif st.st_mode & 0o077:
        problem = f"has mode {stat.S_IMODE(st.st_mode):04o}: group or others can reach it"
    if problem:
        os.close(fd)
        raise KimiDeployError(
            f"the lock directory {directory} {problem}; anyone who can write there can plant or remove the lock. "
            f"Make it 0700 and owned by root (or remove it: it is recreated), or set kimi_preflight_lock_path "
            f"to a file in a root-only directory.")
    return fd


@contextmanager
def _directory(path: Path, *, create: bool = True) -> Iterator[int]:
    fd = _open_dir(path.parent, create=create)
    try:
        yield fd
    finally:
        os.close(fd)


@contextmanager
def _guard(dir_fd: int) -> Iterator[None]:
    """Serialise changes to the lock among this host's processes (the kernel drops it on exit)."""
    fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=dir_fd)  # its own open file description
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _read(dir_fd: int, name: str, now: float, skew_s: float) -> Seen | None:  # noqa: PLR0911 - one answer per state a lock file can be in
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    except OSError as err:
        if err.errno == errno.ELOOP:
            try:
                st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            except FileNotFoundError:
                return None
            return Seen((st.st_dev, st.st_ino), invalid="a symlink")
        raise KimiDeployError(f"cannot read the deploy lock {name}: {err.strerror}") from err
    try:
        st = os.fstat(fd)
        ident = (st.st_dev, st.st_ino)
        if not stat.S_ISREG(st.st_mode):
            return Seen(ident, invalid="not a regular file")
        if st.st_uid != os.geteuid():
            return Seen(ident, invalid=f"owned by uid {st.st_uid}")
        data = os.read(fd, _MAX_BYTES + 1)
    finally:
        os.close(fd)
    try:
        record = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return Seen(ident, invalid="not JSON")
    why = validate(record, now, skew_s)
    return Seen(ident, invalid=why) if why else Seen(ident, record=record)


def _write_new(dir_fd: int, name: str, record: Mapping[str, Any]) -> str:
    """Write ``record`` to a fresh unique file beside the lock; return its name."""
    tmp = f".{name}.{os.getpid()}.{uuid.uuid4().hex}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=dir_fd)
    try:
        os.write(fd, json.dumps(dict(record), sort_keys=True).encode("utf-8"))
    finally:
        os.close(fd)
    return tmp


def _create(dir_fd: int, name: str, record: Mapping[str, Any]) -> bool:
    """Create the lock as a finished file, or return False when anything (a symlink too) is there."""
    tmp = _write_new(dir_fd, name, record)
    try:
        os.link(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
        return True
    except FileExistsError:
        return False
    finally:
        os.unlink(tmp, dir_fd=dir_fd)


def _take_over(dir_fd: int, name: str, stale: Seen, record: Mapping[str, Any], now: float, skew_s: float) -> bool:
    """Replace the lock with ``record`` if it is still the one judged stale (``stale``); else leave it."""
    aside = f".{name}.stale.{os.getpid()}.{uuid.uuid4().hex}"
    try:
        os.rename(name, aside, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except FileNotFoundError:
        return False
    moved = _read(dir_fd, aside, now, skew_s)
    if moved != stale:  # a racer's fresh lock, or the holder's heartbeat: put it back
        try:
            os.link(aside, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
        finally:
            os.unlink(aside, dir_fd=dir_fd)
        return False
    os.unlink(aside, dir_fd=dir_fd)
    return _create(dir_fd, name, record)


def _invalid_message(path: Path, seen: Seen) -> str:
    return (f"the deploy lock {path} is invalid ({seen.invalid}); this tool did not write it, or the clock went "
            f"back. Look at it (ls -l {path}; cat {path}), then remove it (rm {path}) or run again with "
            f"-e kimi_preflight_lock_break=true to replace it.")


def acquire(path: str | Path, owner: str, run_id: str, *, timeout_s: float,
            stale_after_s: float = DEFAULT_STALE_AFTER_S, interval_s: float = 2.0, break_lock: bool = False,
            skew_s: float = DEFAULT_SKEW_S, clock: Callable[[], float] = time.time,
            sleep: Callable[[float], None] = time.sleep) -> dict[str, Any]:
    """Take the lock for the run ``run_id``, waiting up to ``timeout_s``; return what happened.

    The same run taking it again succeeds and refreshes its heartbeat (a retried task must not
    deadlock itself). ``break_lock`` takes over whatever lock is there at once, invalid ones too:
    for the operator who knows its holder died (an interrupted run), and says so.
    """
    path = Path(path)
    name = path.name
    started = clock()
    waited_for = None
    with _directory(path) as dir_fd:
        while True:
            now = clock()
            seen = _read(dir_fd, name, now, skew_s)
            record = {"owner": owner, "run_id": run_id, "acquired_at": now, "heartbeat_at": now}
            if seen is None:
                with _guard(dir_fd):
                    created = _create(dir_fd, name, record)
                if created:
                    return {"acquired": True, "waited_s": round(clock() - started, 1), "waited_for": waited_for,
                            "took_over": None}
                continue  # someone created it between our read and now
            if seen.run_id == run_id:
                try:
                    with _guard(dir_fd):
                        _replace_if_ours(dir_fd, name, run_id, now, skew_s)
                except LockLost:
                    continue  # it changed since we looked: look again
                return {"acquired": True, "waited_s": 0.0, "waited_for": None, "took_over": None}
            stale = seen.invalid is None and seen.heartbeat_age(now) > stale_after_s
            if seen.invalid is not None and not break_lock:
                raise KimiDeployError(_invalid_message(path, seen))
            if break_lock or stale:
                with _guard(dir_fd):
                    took = _take_over(dir_fd, name, seen, record, now, skew_s)
                why = "break_lock" if break_lock else "stale heartbeat"
                break_lock = False  # it was meant for the lock seen first, not for one a racer took since
                if took:
                    age = None if seen.invalid else round(seen.heartbeat_age(now))
                    return {"acquired": True, "waited_s": round(clock() - started, 1), "waited_for": waited_for,
                            "took_over": {"owner": seen.owner, "heartbeat_age_s": age, "why": why}}
                continue  # it changed since we looked: look again
            waited_for = seen.owner
            if clock() - started >= timeout_s:
                raise KimiDeployError(
                    f"another deploy holds {path}: {seen.owner}; its last heartbeat was "
                    f"{seen.heartbeat_age(now):.0f} s ago. Waited {timeout_s:.0f} s. Let it finish and run again; "
                    f"if you know it died (an interrupted run), run again with -e kimi_preflight_lock_break=true "
                    f"(it is also taken over once its heartbeat is {stale_after_s:.0f} s old).")
            sleep(interval_s)


def _replace_if_ours(dir_fd: int, name: str, run_id: str, now: float, skew_s: float) -> dict[str, Any]:
    seen = _read(dir_fd, name, now, skew_s)
    if seen is None:
        raise LockLost("the deploy lock is gone (released or removed by hand)")
    if seen.run_id != run_id:
        raise LockLost(f"the deploy lock was taken over: it is now held by {seen.owner}", held_by=seen.owner)
    record = {**seen.record, "heartbeat_at": now}
    tmp = _write_new(dir_fd, name, record)
    os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)  # atomic: the lock is never absent
    return record


def heartbeat(path: str | Path, run_id: str, *, skew_s: float = DEFAULT_SKEW_S,
              clock: Callable[[], float] = time.time) -> dict[str, Any]:
    """Refresh the heartbeat of this run's lock; raise :class:`LockLost` when it is not ours any more."""
    path = Path(path)
    try:
        with _directory(path, create=False) as dir_fd, _guard(dir_fd):
            return _replace_if_ours(dir_fd, path.name, run_id, clock(), skew_s)
    except FileNotFoundError as err:
        raise LockLost(f"the lock directory {path.parent} is gone") from err


def release(path: str | Path, run_id: str, *, skew_s: float = DEFAULT_SKEW_S,
            clock: Callable[[], float] = time.time) -> dict[str, Any]:
    """Remove the lock if this run holds it. Returns ``released`` and, if another holds it, ``held_by``."""
    path = Path(path)
    try:
        with _directory(path, create=False) as dir_fd, _guard(dir_fd):
            seen = _read(dir_fd, path.name, clock(), skew_s)
            if seen is None:
                return {"released": False, "held_by": None}
            if seen.run_id != run_id:
                return {"released": False, "held_by": seen.owner}
            os.unlink(path.name, dir_fd=dir_fd)
            return {"released": True, "held_by": None}
    except FileNotFoundError:
        return {"released": False, "held_by": None}


def hold(path: str | Path, run_id: str, *, hold_s: float, interval_s: float = DEFAULT_HEARTBEAT_S,
         clock: Callable[[], float] = time.time, sleep: Callable[[float], None] = time.sleep) -> dict[str, Any]:
    """Refresh the heartbeat every ``interval_s`` for ``hold_s``, for a host that waits on others (a worker
    while its replica's head passes the health gate and acceptance) or on purpose (a canary's window).

    It ends early, as it should, once the run releases the lock; it stops if another run took it over.
    Bounded by ``hold_s``, so a keeper left behind by a dead controller lets the lock go stale later.
    """
    end = clock() + hold_s
    beats = 0
    while True:
        try:
            heartbeat(path, run_id, clock=clock)
        except LockLost as err:
            if err.held_by is None:
                return {"beats": beats, "ended": "released", "lost": None}
            return {"beats": beats, "ended": "taken over", "lost": str(err)}
        beats += 1
        remaining = end - clock()
        if remaining < interval_s:
            # The heartbeat just written outlives the rest of the wait: sleep it out, so a caller that
            # waits on purpose (a canary's window) waits hold_s, not up to one interval less.
            sleep(max(0.0, remaining))
            return {"beats": beats, "ended": "held", "lost": None}
        sleep(interval_s)


class KeepAlive:
    """A thread that refreshes this run's heartbeat every ``interval_s`` while a long task runs."""

    def __init__(self, path: str | Path, run_id: str, interval_s: float = DEFAULT_HEARTBEAT_S,
                 clock: Callable[[], float] = time.time):
        self.path, self.run_id, self.interval_s, self.clock = Path(path), run_id, interval_s, clock
        self.beats = 0
        self.lost: str | None = None
        self.error: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kimi-deploy-lock-heartbeat", daemon=True)

    def beat(self) -> bool:
        try:
            heartbeat(self.path, self.run_id, clock=self.clock)
        except LockLost as err:
            self.lost = str(err)
            return False
        except (OSError, KimiDeployError) as err:  # keep trying: a later beat may get through
            self.error = str(err)
            return True
        self.beats += 1
        return True

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            if not self.beat():
                return

    def __enter__(self) -> KeepAlive:
        if self.beat():
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def summary(self) -> dict[str, Any]:
        return {"path": str(self.path), "beats": self.beats, "lost": self.lost, "error": self.error}


# The ``deploy_lock`` option of the modules that wait long (their DOCUMENTATION describes it).
LOCK_OPTION: dict[str, Any] = dict(type="dict", options=dict(
    path=dict(type="path", required=True),
    run_id=dict(type="str", required=True),
    interval_s=dict(type="float", default=DEFAULT_HEARTBEAT_S),
))


def lock_report(keeper: KeepAlive | None, result: dict[str, Any]) -> str | None:
    """Put the heartbeats in ``result['deploy_lock']``; return the warning to give if the lock was lost."""
    if keeper is None:
        return None
    result["deploy_lock"] = keeper.summary()
    if keeper.lost is None:
        return None
    return (f"{keeper.lost}; this run no longer holds {keeper.path}, and another run may be changing this host. "
            f"Its heartbeat was not refreshed any further.")


@contextmanager
def keep_alive(spec: Mapping[str, Any] | None) -> Iterator[KeepAlive | None]:
    """``with keep_alive(module.params['deploy_lock']) as keeper:`` around a long task; no-op when None."""
    if not spec:
        yield None
        return
    with KeepAlive(spec["path"], spec["run_id"], float(spec.get("interval_s") or DEFAULT_HEARTBEAT_S)) as keeper:
        yield keeper
