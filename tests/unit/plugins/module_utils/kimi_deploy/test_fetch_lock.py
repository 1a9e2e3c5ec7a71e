"""Issue 11 (2): a weights fetch orphaned by a killed run is found and stopped before the next
fetch touches the store, so the two never write the same files."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.io.fetch_lock import FetchLock, lock_holders
from repo_paths import REPO

MODULE_UTILS = REPO / "plugins" / "module_utils"


def test_lock_holders_reads_proc_locks():
    text = ("1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF\n"
            "2: POSIX  ADVISORY  WRITE 77 fd:01:1234 0 EOF\n"
            "3: FLOCK  ADVISORY  WRITE 99 fd:01:999 0 EOF\n"
            "4: -> FLOCK  ADVISORY  WRITE 5 fd:01:1234 0 EOF\n")
    assert lock_holders(text, 1234) == {4242}
    assert lock_holders(text, 1234, os.makedev(0xfd, 1)) == {4242}
    assert lock_holders(text, 1234, os.makedev(8, 1)) == set()  # same inode, other filesystem


def _orphan(store):
    """A process that holds the store's fetch lock and keeps 'writing', like an orphaned async job."""
    code = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(MODULE_UTILS)!r})
        from kimi_deploy.io.fetch_lock import FetchLock
        with FetchLock({str(store)!r}):
            print("locked", flush=True)
            while True:
                with open({str(store / "part.incomplete")!r}, "a") as fh:
                    fh.write("x")
                time.sleep(0.05)
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "locked"
    return proc


def test_the_next_fetch_stops_the_orphan_before_it_proceeds(tmp_path):
    orphan = _orphan(tmp_path)
    try:
        with FetchLock(str(tmp_path), wait_s=20) as lock:
            assert orphan.wait(timeout=10) == -signal.SIGTERM
            assert lock.stopped == [orphan.pid]
            size = (tmp_path / "part.incomplete").stat().st_size
            time.sleep(0.3)
            assert (tmp_path / "part.incomplete").stat().st_size == size  # nobody writes any more
            assert (tmp_path / ".fetch.lock").read_text().strip() == str(os.getpid())
    finally:
        if orphan.poll() is None:
            orphan.kill()


def test_a_stale_pid_in_the_lock_file_is_never_signalled(tmp_path):
    (tmp_path / ".fetch.lock").write_text("1\n")  # pid 1, not holding anything
    killed = []
    with FetchLock(str(tmp_path), kill=lambda pid, sig: killed.append(pid)) as lock:
        assert lock.stopped == []
    assert killed == []


def test_a_holder_that_will_not_stop_fails_with_its_pid(tmp_path):
    orphan = _orphan(tmp_path)
    clock = iter(range(0, 1000, 10))
    try:
        with pytest.raises(KimiDeployError, match=str(orphan.pid)), \
             FetchLock(str(tmp_path), wait_s=30, kill=lambda pid, sig: None, clock=lambda: next(clock),
                       sleep=lambda s: None):
            pass
    finally:
        orphan.kill()
        orphan.wait()
