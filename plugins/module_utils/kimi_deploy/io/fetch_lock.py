"""One weights fetch at a time per model store, and a fetch orphaned by a killed run is stopped.

The fetch runs as an Ansible async job: when ansible-playbook dies, the job lives on and keeps
writing into the store. A second fetch next to it would delete its partial files and write the
same ones (``fetch_snapshot`` removes stale ``*.incomplete`` files). So each fetch holds an
exclusive ``flock`` on ``<store>/.fetch.lock`` with its pid written in it. The next fetch finds the
lock held, stops the holder (SIGTERM, then SIGKILL) and takes the lock once the holder is gone.
Files the orphan finished are kept and not fetched again; its partial files are cleaned up by the
fetch, which then downloads what is still missing.

The pid is only signalled when ``/proc/locks`` shows that very pid holding a lock on this file, so a
stale pid in the file (reused by another process) is never signalled.
"""

from __future__ import annotations

import errno
import fcntl
import os
import signal
import time
from collections.abc import Callable

from ..core.errors import KimiDeployError

LOCK_NAME = ".fetch.lock"


def lock_holders(locks_text: str, inode: int, dev: int | None = None) -> set[int]:
    """Pids holding a FLOCK on ``inode``, from ``/proc/locks`` (``1: FLOCK ADVISORY WRITE 42 08:01:1234 0 EOF``)."""
    pids = set()
    for line in locks_text.splitlines():
        fields = line.split()
        if len(fields) < 6 or "FLOCK" not in fields or "->" in fields:
            continue
        i = fields.index("FLOCK")
        try:
            pid, dev_inode = int(fields[i + 3]), fields[i + 4]
        except (IndexError, ValueError):
            continue
        major_minor, _unused, ino = dev_inode.rpartition(":")
        if ino != str(inode):
            continue
        if dev is not None and major_minor.lower() != f"{os.major(dev):02x}:{os.minor(dev):02x}":
            continue  # the same inode number on another filesystem
        pids.add(pid)
    return pids


class FetchLock:
    """``with FetchLock(store): ...`` holds the store's fetch lock, stopping an orphaned holder first."""

    def __init__(self, store: str, *, wait_s: float = 120.0, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, kill: Callable[[int, int], None] = os.kill,
                 read_locks: Callable[[], str] | None = None):
        self.path = os.path.join(store, LOCK_NAME)
        self.wait_s = wait_s
        self.clock, self.sleep, self.kill = clock, sleep, kill
        self.read_locks = read_locks or self._proc_locks
        self.fd = -1
        self.stopped: list[int] = []

    @staticmethod
    def _proc_locks() -> str:
        try:
            with open("/proc/locks", encoding="ascii", errors="replace") as fh:
                return fh.read()
        except OSError:
            return ""

    def _try(self) -> bool:
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError as err:
            if err.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            return False

    def _holder(self) -> int:
        try:
            pid = int(os.pread(self.fd, 32, 0).decode("ascii", "replace").strip() or 0)
        except ValueError:
            return 0
        st = os.fstat(self.fd)
        return pid if pid in lock_holders(self.read_locks(), st.st_ino, st.st_dev) else 0

    def __enter__(self) -> FetchLock:
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        start = self.clock()
        sig = signal.SIGTERM
        while not self._try():
            holder = self._holder()
            if holder and holder != os.getpid():
                try:
                    self.kill(holder, sig)
                    if holder not in self.stopped:
                        self.stopped.append(holder)
                except ProcessLookupError:
                    pass
            waited = self.clock() - start
            if waited >= self.wait_s:
                os.close(self.fd)
                raise KimiDeployError(
                    f"another weights fetch holds {self.path} (pid {holder or 'unknown'}) and did not stop "
                    f"within {self.wait_s:.0f} s; stop it, then run again")
            if waited >= self.wait_s / 2:
                sig = signal.SIGKILL
            self.sleep(0.5)
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, f"{os.getpid()}\n".encode(), 0)
        return self

    def __exit__(self, *exc) -> None:
        if self.fd >= 0:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = -1
