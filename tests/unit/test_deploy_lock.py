import json
import threading

import kimi_deploy_lock
import pytest
from kimi_deploy.deploy_lock import acquire, release
from kimi_deploy.errors import KimiDeployError
from module_harness import run_module


class Clock:
    def __init__(self, now=1000.0):
        self.now = now

    def __call__(self):
        return self.now

    def sleep(self, s):
        self.now += s


def test_one_owner_at_a_time(tmp_path):
    lock = tmp_path / "k.lock"
    assert acquire(lock, "a", timeout_s=0, stale_after_s=60)["waited_s"] == 0
    clock = Clock(json.loads(lock.read_text())["acquired_at"])
    with pytest.raises(KimiDeployError, match=r"another deploy holds .*: a, for"):
        acquire(lock, "b", timeout_s=10, stale_after_s=3600, clock=clock, sleep=clock.sleep)
    assert clock.now >= json.loads(lock.read_text())["acquired_at"] + 10
    assert release(lock, "b") is False and lock.exists()
    assert release(lock, "a") is True and not lock.exists()


def test_the_same_owner_may_retake_it(tmp_path):
    lock = tmp_path / "k.lock"
    acquire(lock, "a", timeout_s=0, stale_after_s=60)
    assert acquire(lock, "a", timeout_s=0, stale_after_s=60)["waited_for"] is None


def test_a_stale_lock_is_taken_over_and_reported(tmp_path):
    lock = tmp_path / "k.lock"
    lock.write_text(json.dumps({"owner": "dead deploy", "acquired_at": 0}))
    result = acquire(lock, "b", timeout_s=0, stale_after_s=60, clock=Clock(1000.0))
    assert result["took_over"] == {"owner": "dead deploy", "age_s": 1000}
    assert json.loads(lock.read_text())["owner"] == "b"


def test_a_waiter_gets_the_lock_when_it_is_released(tmp_path):
    lock = tmp_path / "k.lock"
    acquire(lock, "a", timeout_s=0, stale_after_s=60)
    threading.Timer(0.3, release, args=(lock, "a")).start()
    result = acquire(lock, "b", timeout_s=10, stale_after_s=60, interval_s=0.05)
    assert result["waited_for"] == "a" and 0.2 <= result["waited_s"] <= 5


@pytest.mark.parametrize("round_", range(20))
def test_racing_creators_get_exactly_one_lock(tmp_path, round_):
    lock = tmp_path / "k.lock"
    winners = []
    start = threading.Barrier(8)

    def take(owner):
        start.wait()
        try:
            acquire(lock, owner, timeout_s=0, stale_after_s=60)
            winners.append(owner)
        except KimiDeployError:
            pass

    threads = [threading.Thread(target=take, args=(f"o{i}",)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(winners) == 1 and json.loads(lock.read_text())["owner"] == winners[0]


def test_module_reports_no_change_and_fails_with_the_holder(tmp_path):
    lock = str(tmp_path / "k.lock")
    first = run_module(kimi_deploy_lock, {"path": lock, "owner": "a", "timeout_s": 0})
    assert first["changed"] is False and "failed" not in first
    second = run_module(kimi_deploy_lock, {"path": lock, "owner": "b", "timeout_s": 0})
    assert second["failed"] and "a, for" in second["msg"]
    done = run_module(kimi_deploy_lock, {"path": lock, "owner": "a", "state": "released"})
    assert done["released"] is True and done["changed"] is False


def test_break_lock_takes_over_at_once_and_names_the_holder(tmp_path):
    lock = tmp_path / "k.lock"
    acquire(lock, "interrupted run", timeout_s=0, stale_after_s=3600)
    result = acquire(lock, "b", timeout_s=0, stale_after_s=3600, break_lock=True)
    assert result["took_over"]["owner"] == "interrupted run"
    assert json.loads(lock.read_text())["owner"] == "b"
