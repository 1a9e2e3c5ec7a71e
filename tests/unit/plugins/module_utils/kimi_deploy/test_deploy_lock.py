import json
import multiprocessing
import os
import threading
import time

import kimi_deploy_lock
import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.io.deploy_lock import (
    KeepAlive,
    LockLost,
    _directory,
    _read,
    _take_over,
    acquire,
    heartbeat,
    hold,
    keep_alive,
    release,
)
from module_harness import run_module

T0 = 1_700_000_000.0  # in the past, so a real clock never reads these locks as from the future


class Clock:
    def __init__(self, now=T0):
        self.now = now

    def __call__(self):
        return self.now

    def sleep(self, s):
        self.now += s


@pytest.fixture
def lock(tmp_path):
    return tmp_path / "kimi-deploy" / "deploy.lock"


def plant(lock, record, mode=0o700):
    lock.parent.mkdir(mode=mode, exist_ok=True)
    lock.write_text(record if isinstance(record, str) else json.dumps(record))
    return lock


def stale_record(owner="dead deploy", at=T0 - 7200):
    return {"owner": owner, "run_id": "dead", "acquired_at": at, "heartbeat_at": at}


def test_one_run_at_a_time_and_only_the_holder_releases(lock):
    clock = Clock()
    assert acquire(lock, "a", "run-a", timeout_s=0, clock=clock)["waited_s"] == 0
    with pytest.raises(KimiDeployError, match=r"another deploy holds .*: a; its last heartbeat was 10 s ago"):
        acquire(lock, "b", "run-b", timeout_s=10, clock=clock, sleep=clock.sleep)
    assert clock.now >= T0 + 10
    assert release(lock, "run-b") == {"released": False, "held_by": "a"} and lock.exists()
    assert release(lock, "run-a") == {"released": True, "held_by": None} and not lock.exists()


def test_the_lock_and_its_directory_are_root_only(lock):
    acquire(lock, "a", "run-a", timeout_s=0)
    assert oct(lock.parent.stat().st_mode & 0o7777) == "0o700" and lock.parent.stat().st_uid == os.geteuid()
    assert oct(lock.stat().st_mode & 0o7777) == "0o600"
    assert sorted(p.name for p in lock.parent.iterdir()) == ["deploy.lock"]  # no temporary files left


def test_the_same_run_may_retake_it_and_that_refreshes_its_heartbeat(lock):
    clock = Clock()
    acquire(lock, "a", "run-a", timeout_s=0, clock=clock)
    clock.now += 500
    assert acquire(lock, "a", "run-a", timeout_s=0, clock=clock)["waited_for"] is None
    assert json.loads(lock.read_text())["heartbeat_at"] == T0 + 500


def test_a_heartbeat_keeps_a_long_held_lock_from_being_taken_over(lock):
    """A K3 first fetch plus an hour of load: 8 h held, heartbeats every 10 min, stale after 15 min."""
    clock = Clock()
    acquire(lock, "a", "run-a", timeout_s=0, stale_after_s=900, clock=clock)
    for _unused in range(48):
        clock.now += 600
        heartbeat(lock, "run-a", clock=clock)
    clock.now += 600
    with pytest.raises(KimiDeployError, match=r"another deploy holds .*: a; its last heartbeat was 600 s ago"):
        acquire(lock, "b", "run-b", timeout_s=0, stale_after_s=900, clock=clock)
    held = json.loads(lock.read_text())
    assert held["run_id"] == "run-a" and held["acquired_at"] == T0 and held["heartbeat_at"] == T0 + 48 * 600


def test_a_lock_with_an_old_heartbeat_is_taken_over_and_its_holder_learns_it(lock):
    clock = Clock()
    acquire(lock, "a", "run-a", timeout_s=0, clock=clock)
    clock.now += 300
    heartbeat(lock, "run-a", clock=clock)
    clock.now += 901
    result = acquire(lock, "b", "run-b", timeout_s=0, stale_after_s=900, clock=clock)
    assert result["took_over"] == {"owner": "a", "heartbeat_age_s": 901, "why": "stale heartbeat"}
    assert json.loads(lock.read_text())["run_id"] == "run-b"
    with pytest.raises(LockLost, match="taken over: it is now held by b"):
        heartbeat(lock, "run-a", clock=clock)
    assert release(lock, "run-a") == {"released": False, "held_by": "b"}
    assert json.loads(lock.read_text())["run_id"] == "run-b"


def test_the_takeover_puts_back_a_lock_that_is_not_the_stale_one_it_saw(lock):
    clock = Clock()
    plant(lock, stale_record())
    with _directory(lock) as dir_fd:
        seen = _read(dir_fd, lock.name, clock(), 60)
        # A racer took the stale lock over between our look and our rename: its fresh lock stays.
        acquire(lock, "racer", "run-racer", timeout_s=0, clock=clock)
        before = (lock.stat().st_ino, lock.read_text())
        assert _take_over(dir_fd, lock.name, seen, {"owner": "me"}, clock(), 60) is False
        assert (lock.stat().st_ino, lock.read_text()) == before
        # The holder came back and beat after our look: its lock stays too.
        seen = _read(dir_fd, lock.name, clock(), 60)
        clock.now += 1
        heartbeat(lock, "run-racer", clock=clock)
        assert _take_over(dir_fd, lock.name, seen, {"owner": "me"}, clock(), 60) is False
        assert json.loads(lock.read_text())["heartbeat_at"] == T0 + 1
    assert sorted(p.name for p in lock.parent.iterdir()) == ["deploy.lock"]


def _race(lock, run_id, barrier, results):
    barrier.wait()
    try:
        acquire(lock, run_id, run_id, timeout_s=0, stale_after_s=900, interval_s=0.01)
        results.put(run_id)
    except KimiDeployError:
        results.put(None)


def test_racers_taking_over_a_stale_lock_in_real_processes_get_exactly_one_lock(lock, record_property):
    """20 rounds of 16 processes, each seeing the same stale lock; each round exactly one may win.

    Before the rename-and-compare takeover, 13 of 50 such rounds had two or three winners.
    """
    ctx = multiprocessing.get_context("fork")
    rounds = []
    for round_ in range(20):
        plant(lock, stale_record(at=time.time() - 7200))
        barrier, results = ctx.Barrier(16), ctx.Queue()
        procs = [ctx.Process(target=_race, args=(lock, f"r{round_}p{i}", barrier, results)) for i in range(16)]
        for proc in procs:
            proc.start()
        got = [results.get(timeout=30) for _unused in procs]
        for proc in procs:
            proc.join(timeout=30)
        winners = [w for w in got if w]
        rounds.append((winners, json.loads(lock.read_text())["run_id"]))
    record_property("winners_per_round", [len(w) for w, _unused in rounds])
    bad = [(i, w, holder) for i, (w, holder) in enumerate(rounds) if len(w) != 1 or w[0] != holder]
    assert not bad, f"rounds with other than one winner holding the lock: {bad}"


@pytest.mark.parametrize("round_", range(5))
def test_racing_creators_in_threads_get_exactly_one_lock(lock, round_):
    winners = []
    start = threading.Barrier(8)

    def take(run_id):
        start.wait()
        try:
            acquire(lock, run_id, run_id, timeout_s=0)
            winners.append(run_id)
        except KimiDeployError:
            pass

    threads = [threading.Thread(target=take, args=(f"o{i}",)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(winners) == 1 and json.loads(lock.read_text())["run_id"] == winners[0]


def test_a_waiter_gets_the_lock_when_it_is_released(lock):
    acquire(lock, "a", "run-a", timeout_s=0)
    threading.Timer(0.3, release, args=(lock, "run-a")).start()
    result = acquire(lock, "b", "run-b", timeout_s=10, interval_s=0.05)
    assert result["waited_for"] == "a" and 0.2 <= result["waited_s"] <= 5


def test_break_lock_takes_over_at_once_and_names_the_holder(lock):
    acquire(lock, "interrupted run", "run-a", timeout_s=0)
    result = acquire(lock, "b", "run-b", timeout_s=0, break_lock=True)
    assert result["took_over"]["owner"] == "interrupted run" and result["took_over"]["why"] == "break_lock"
    assert json.loads(lock.read_text())["run_id"] == "run-b"


def test_break_lock_breaks_the_lock_it_saw_not_one_a_racer_took_meanwhile(lock, monkeypatch):
    from kimi_deploy.io import deploy_lock
    real = deploy_lock._take_over

    def racer_first(*args):
        # Another breaker's takeover lands between our look and ours (we hold the guard: write it as it did).
        monkeypatch.setattr(deploy_lock, "_take_over", real)
        racer = lock.with_name("racer")
        racer.write_text(json.dumps({"owner": "racer", "run_id": "run-racer", "acquired_at": time.time(),
                                     "heartbeat_at": time.time()}))
        racer.rename(lock)
        return real(*args)

    acquire(lock, "interrupted run", "run-a", timeout_s=0)
    monkeypatch.setattr(deploy_lock, "_take_over", racer_first)
    with pytest.raises(KimiDeployError, match=r"another deploy holds .*: racer;"):
        acquire(lock, "b", "run-b", timeout_s=0, break_lock=True)
    assert json.loads(lock.read_text())["run_id"] == "run-racer"


def test_a_planted_symlink_is_refused_and_its_target_left_alone(lock, tmp_path):
    target = tmp_path / "precious"
    target.write_text("keep me")
    lock.parent.mkdir(mode=0o700)
    lock.symlink_to(target)
    with pytest.raises(KimiDeployError, match=r"deploy lock .*deploy.lock is invalid \(a symlink\).*rm .*deploy.lock"):
        acquire(lock, "b", "run-b", timeout_s=0)
    assert lock.is_symlink() and target.read_text() == "keep me"
    # The operator who looked may replace it; the link goes, its target stays.
    assert acquire(lock, "b", "run-b", timeout_s=0, break_lock=True)["took_over"]["owner"].startswith("an invalid")
    assert not lock.is_symlink() and json.loads(lock.read_text())["run_id"] == "run-b"
    assert target.read_text() == "keep me"


@pytest.mark.parametrize("mode", [0o777, 0o1777, 0o750, 0o702])
def test_a_lock_directory_others_can_reach_is_refused(lock, mode):
    lock.parent.mkdir()
    lock.parent.chmod(mode)
    with pytest.raises(KimiDeployError, match=rf"lock directory .* has mode {mode:04o}.*0700"):
        acquire(lock, "b", "run-b", timeout_s=0)
    assert list(lock.parent.iterdir()) == []


def test_a_lock_directory_owned_by_someone_else_is_refused(lock):
    lock.parent.mkdir(mode=0o700)
    os.chown(lock.parent, 65534, 65534)
    with pytest.raises(KimiDeployError, match=r"is owned by uid 65534"):
        acquire(lock, "b", "run-b", timeout_s=0)


def test_a_symlinked_lock_directory_is_refused(lock, tmp_path):
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    lock.parent.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(KimiDeployError, match=r"is a symlink or not a directory"):
        acquire(lock, "b", "run-b", timeout_s=0)
    assert list((tmp_path / "elsewhere").iterdir()) == []


@pytest.mark.parametrize("field", ["acquired_at", "heartbeat_at"])
def test_a_future_timestamp_makes_the_lock_invalid(lock, field):
    record = stale_record(at=T0)
    record[field] = T0 + 3600
    plant(lock, record)
    with pytest.raises(KimiDeployError, match=rf"invalid \({field} is 3600 s in the future\)"):
        acquire(lock, "b", "run-b", timeout_s=3600, clock=Clock())
    assert json.loads(lock.read_text()) == record


def test_a_heartbeat_a_little_ahead_is_clock_skew_not_an_invalid_lock(lock):
    plant(lock, stale_record(at=T0 + 30))
    with pytest.raises(KimiDeployError, match="another deploy holds"):
        acquire(lock, "b", "run-b", timeout_s=0, clock=Clock())


@pytest.mark.parametrize(("content", "why"), [
    ("", "not JSON"),
    ("{not json", "not JSON"),
    ("[1, 2]", "not a JSON object"),
    (json.dumps({"run_id": "x", "acquired_at": T0, "heartbeat_at": T0}), "no owner"),
    (json.dumps({"owner": "  ", "run_id": "x", "acquired_at": T0, "heartbeat_at": T0}), "no owner"),
    (json.dumps({"owner": "a", "acquired_at": T0, "heartbeat_at": T0}), "no run_id"),
    (json.dumps({"owner": "a", "run_id": "x", "acquired_at": "yesterday", "heartbeat_at": T0}),
     "acquired_at is not a number"),
    (json.dumps({"owner": "a", "run_id": "x", "acquired_at": T0}), "heartbeat_at is not a number"),
])
def test_an_unparsable_lock_is_invalid_and_refused_at_once(lock, content, why):
    plant(lock, content)
    clock = Clock()
    with pytest.raises(KimiDeployError, match=rf"invalid \({why}\).*kimi_preflight_lock_break=true"):
        acquire(lock, "b", "run-b", timeout_s=600, clock=clock, sleep=clock.sleep)
    assert clock.now == T0 and lock.read_text() == content  # refused without waiting, left as it was


def test_a_lock_that_is_not_a_regular_file_is_invalid(lock):
    lock.parent.mkdir(mode=0o700)
    os.mkfifo(lock)
    with pytest.raises(KimiDeployError, match=r"invalid \(not a regular file\)"):
        acquire(lock, "b", "run-b", timeout_s=0)


def test_keep_alive_refreshes_the_heartbeat_while_a_long_task_runs(lock):
    acquire(lock, "a", "run-a", timeout_s=0, clock=Clock(time.time() - 3600))
    with keep_alive({"path": str(lock), "run_id": "run-a", "interval_s": 0.02}) as keeper:
        time.sleep(0.2)
    assert keeper.beats >= 3 and keeper.lost is None
    assert time.time() - json.loads(lock.read_text())["heartbeat_at"] < 5
    beats = keeper.beats
    time.sleep(0.05)
    assert keeper.beats == beats  # it stops with the task


def test_keep_alive_stops_and_says_so_when_the_lock_was_taken_over(lock):
    acquire(lock, "a", "run-a", timeout_s=0)
    acquire(lock, "b", "run-b", timeout_s=0, break_lock=True)
    with KeepAlive(lock, "run-a", interval_s=0.01) as keeper:
        time.sleep(0.05)
    assert keeper.beats == 0 and "now held by b" in keeper.lost
    assert json.loads(lock.read_text())["run_id"] == "run-b"


def test_keep_alive_without_a_lock_does_nothing():
    with keep_alive(None) as keeper:
        assert keeper is None


def test_module_takes_refreshes_and_gives_back_the_lock_in_check_mode_too(lock):
    path = str(lock)
    first = run_module(kimi_deploy_lock, {"path": path, "owner": "a", "run_id": "run-a", "timeout_s": 0},
                       check_mode=True)
    assert first["changed"] is False and "failed" not in first
    second = run_module(kimi_deploy_lock, {"path": path, "owner": "b", "run_id": "run-b", "timeout_s": 0})
    assert second["failed"] and "another deploy holds" in second["msg"] and ": a;" in second["msg"]
    beat = run_module(kimi_deploy_lock, {"path": path, "run_id": "run-a", "state": "heartbeat"}, check_mode=True)
    assert beat["changed"] is False and beat["heartbeat_at"] == json.loads(lock.read_text())["heartbeat_at"]
    done = run_module(kimi_deploy_lock, {"path": path, "run_id": "run-a", "state": "released"})
    assert done["released"] is True and done["changed"] is False and not lock.exists()


def test_module_says_when_its_lock_was_taken_over(lock):
    path = str(lock)
    run_module(kimi_deploy_lock, {"path": path, "owner": "a", "run_id": "run-a", "timeout_s": 0})
    took = run_module(kimi_deploy_lock, {"path": path, "owner": "b", "run_id": "run-b", "break_lock": True})
    warned = str(took["warnings"])  # a list of strings, or of warning events (ansible-core 2.19)
    assert "took over the deploy lock" in warned and "held by a (break_lock" in warned
    beat = run_module(kimi_deploy_lock, {"path": path, "run_id": "run-a", "state": "heartbeat"})
    assert beat["failed"] and "now held by b" in beat["msg"] and "no longer holds" in beat["msg"]
    gone = run_module(kimi_deploy_lock, {"path": path, "run_id": "run-a", "state": "released"})
    assert gone["released"] is False and gone["held_by"] == "b" and "left alone" in str(gone["warnings"])
    assert json.loads(lock.read_text())["run_id"] == "run-b"


def test_module_refuses_an_invalid_lock_naming_it_and_how_to_clear_it(lock):
    plant(lock, "planted")
    out = run_module(kimi_deploy_lock, {"path": str(lock), "owner": "b", "run_id": "run-b", "timeout_s": 0})
    assert out["failed"] and f"rm {lock}" in out["msg"] and "kimi_preflight_lock_break=true" in out["msg"]


def test_module_needs_an_owner_to_take_the_lock(lock):
    out = run_module(kimi_deploy_lock, {"path": str(lock), "run_id": "run-b"})
    assert out["failed"] and "owner" in out["msg"]


# ------------------------------------------------------------------ the modules that wait long


def _slow(result, seconds=0.12):
    def run(*args, **kwargs):
        time.sleep(seconds)
        return result() if callable(result) else result if not isinstance(result, dict) else dict(result)
    return run


def _health(monkeypatch):
    import kimi_vllm_health
    from kimi_deploy.io.health import HttpAnswer
    monkeypatch.setattr(kimi_vllm_health, "wait_healthy", _slow(0.12))
    monkeypatch.setattr(kimi_vllm_health, "http_request",
                        lambda *a, **k: HttpAnswer(200, json.dumps({"data": [{"id": "tiny"}]}), 1.0))
    return kimi_vllm_health, {"served_model_name": "tiny", "smoke": False}


def _fetch(monkeypatch):
    import kimi_hf_snapshot
    monkeypatch.setattr(kimi_hf_snapshot, "fetch_snapshot", _slow({"changed": True, "path": "/m"}))
    return kimi_hf_snapshot, {"repo_id": "org/model", "revision": "a" * 40, "models_dir": "/nonexistent"}


def _acceptance(monkeypatch):
    import kimi_vllm_acceptance
    keys = ("failed_checks", "checks", "metrics", "server", "suite_duration_s", "profile", "served_model_name",
            "started_at", "notes", "settings")
    monkeypatch.setattr(kimi_vllm_acceptance, "run_acceptance",
                        _slow(lambda: {"passed": True, "msg": "accepted", **dict.fromkeys(keys)}))
    return kimi_vllm_acceptance, {"served_model_name": "tiny", "max_model_len": 128, "max_output_tokens": 8,
                                  "concurrency": 2, "expect_api_key": False}


@pytest.mark.parametrize("setup", [_fetch, _health, _acceptance], ids=["fetch", "health_wait", "acceptance"])
def test_the_long_tasks_refresh_the_heartbeat_of_the_lock_they_are_given(lock, monkeypatch, setup):
    acquire(lock, "a", "run-a", timeout_s=0, clock=Clock())
    module, args = setup(monkeypatch)
    spec = {"path": str(lock), "run_id": "run-a", "interval_s": 0.02}
    out = run_module(module, {**args, "deploy_lock": spec})
    assert "failed" not in out, out.get("msg")
    assert out["deploy_lock"]["beats"] >= 3 and out["deploy_lock"]["lost"] is None
    assert time.time() - json.loads(lock.read_text())["heartbeat_at"] < 5  # T0 was a day ago
    assert "deploy_lock" not in run_module(module, args)  # without a lock, nothing to refresh


def test_a_long_task_whose_lock_was_taken_over_warns_and_leaves_the_new_holder_alone(lock, monkeypatch):
    acquire(lock, "a", "run-a", timeout_s=0)
    module, args = _health(monkeypatch)
    threading.Timer(0.04, acquire, args=(lock, "b", "run-b"), kwargs={"timeout_s": 0, "break_lock": True}).start()
    out = run_module(module, {**args, "deploy_lock": {"path": str(lock), "run_id": "run-a", "interval_s": 0.02}})
    assert "now held by b" in out["deploy_lock"]["lost"] and "another run may be changing" in str(out["warnings"])
    assert json.loads(lock.read_text())["run_id"] == "run-b"


def test_a_waiting_worker_holds_its_lock_alive_for_hold_s_and_no_longer(lock):
    clock = Clock()
    acquire(lock, "a", "run-a", timeout_s=0, clock=clock)
    assert hold(lock, "run-a", hold_s=3600, interval_s=60, clock=clock, sleep=clock.sleep) == \
        {"beats": 61, "ended": "held", "lost": None}
    assert json.loads(lock.read_text())["heartbeat_at"] == T0 + 3600
    with pytest.raises(KimiDeployError, match="another deploy holds"):
        acquire(lock, "b", "run-b", timeout_s=0, stale_after_s=900, clock=clock)
    clock.now += 901  # the keeper is bounded: a dead controller's lock goes stale after all
    assert acquire(lock, "b", "run-b", timeout_s=0, stale_after_s=900, clock=clock)["took_over"]["owner"] == "a"


def test_a_hold_that_is_not_a_multiple_of_the_interval_still_lasts_hold_s(lock):
    """A canary's window waits with hold(): it must end at hold_s, not up to one interval early."""
    clock = Clock()
    acquire(lock, "a", "run-a", timeout_s=0, clock=clock)
    assert hold(lock, "run-a", hold_s=100, interval_s=60, clock=clock, sleep=clock.sleep) == \
        {"beats": 2, "ended": "held", "lost": None}
    assert clock.now == T0 + 100
    assert json.loads(lock.read_text())["heartbeat_at"] == T0 + 60


@pytest.mark.parametrize(("then", "ended"), [
    (lambda lock, clock: release(lock, "run-a", clock=clock), {"beats": 3, "ended": "released", "lost": None}),
    (lambda lock, clock: acquire(lock, "b", "run-b", timeout_s=0, break_lock=True, clock=clock),
     {"beats": 3, "ended": "taken over", "lost": "the deploy lock was taken over: it is now held by b"}),
])
def test_a_keeper_ends_when_the_run_releases_its_lock_or_another_takes_it(lock, then, ended):
    clock = Clock()
    acquire(lock, "a", "run-a", timeout_s=0, clock=clock)

    def sleep(s):
        clock.sleep(s)
        if clock.now >= T0 + 180:
            then(lock, clock)

    assert hold(lock, "run-a", hold_s=3600, interval_s=60, clock=clock, sleep=sleep) == ended


def test_module_keeper_returns_when_the_lock_is_released(lock):
    acquire(lock, "a", "run-a", timeout_s=0)
    threading.Timer(0.1, release, args=(lock, "run-a")).start()
    out = run_module(kimi_deploy_lock, {"path": str(lock), "run_id": "run-a", "state": "heartbeat",
                                        "hold_s": 30, "interval_s": 0.02})
    assert out["ended"] == "released" and out["beats"] >= 2 and not lock.exists()
