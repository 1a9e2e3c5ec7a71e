import json

import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.io.health import (
    HttpAnswer,
    UnitState,
    check_models,
    check_smoke,
    unit_broken,
    wait_for_new_invocation,
    wait_healthy,
)


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


def _probe_sequence(statuses):
    calls = iter(statuses)
    return lambda url: HttpAnswer(next(calls), "", 1.0)


def test_unit_state_parse():
    state = UnitState.parse("ActiveState=activating\nSubState=start-post\nNRestarts=2\nMainPID=4242\n"
                            "InvocationID=ab12\n")
    assert state == UnitState("activating", "start-post", 2, 4242, "ab12")


def test_wait_returns_elapsed_when_health_answers():
    clock = FakeClock()
    waited = wait_healthy("http://x", timeout_s=100, interval_s=5, clock=clock, sleep=clock.sleep,
                          probe=_probe_sequence([0, 503, 200]))
    assert waited == 10


def test_wait_times_out_with_last_answer():
    clock = FakeClock()
    with pytest.raises(KimiDeployError, match="within 12 s"):
        wait_healthy("http://x", timeout_s=12, interval_s=5, clock=clock, sleep=clock.sleep,
                     probe=lambda url: HttpAnswer(0, "connection refused", 0))


def test_wait_fails_fast_when_the_unit_restarts():
    clock = FakeClock()
    states = iter([UnitState("active", "running", 0, 10), UnitState("active", "running", 0, 10),
                   UnitState("activating", "auto-restart", 1, 0)])
    with pytest.raises(KimiDeployError, match="restarted"):
        wait_healthy("http://x", timeout_s=3600, interval_s=5, clock=clock, sleep=clock.sleep,
                     probe=lambda url: HttpAnswer(0, "", 0), unit_state=lambda: next(states))
    assert clock.now == 5  # one interval, not the hour


@pytest.mark.parametrize(("before", "after", "broken"), [
    (UnitState("activating", "start", 0, 1), UnitState("failed", "failed", 0, 0), True),
    (UnitState("active", "running", 3, 1), UnitState("active", "running", 3, 1), False),
    (UnitState("active", "running", 0, 1), UnitState("inactive", "dead", 0, 0), True),
    (UnitState("inactive", "dead", 0, 0), UnitState("inactive", "dead", 0, 0), False),
    (UnitState("activating", "start", 0, 0), UnitState("activating", "start-post", 0, 0), True),
    (UnitState("activating", "start", 0, 0), UnitState("activating", "start-post", 0, 77), False),
])
def test_unit_broken(before, after, broken):
    assert bool(unit_broken(before, after)) is broken


def _json(status, doc):
    return HttpAnswer(status, json.dumps(doc), 12.5)


def test_models_must_list_served_name():
    assert check_models(_json(200, {"data": [{"id": "tiny"}]}), "tiny") == ["tiny"]
    with pytest.raises(KimiDeployError, match="404"):
        check_models(_json(200, {"data": [{"id": "/models/x"}]}), "tiny")
    with pytest.raises(KimiDeployError, match="API key"):
        check_models(_json(401, {"error": "Unauthorized"}), "tiny")


def test_smoke_checks_structure_and_usage():
    good = {"choices": [{"finish_reason": "length"}],
            "usage": {"prompt_tokens": 18, "completion_tokens": 8, "total_tokens": 26}}
    assert check_smoke(_json(200, good), 8)["completion_tokens"] == 8
    bad_sum = {**good, "usage": {"prompt_tokens": 18, "completion_tokens": 8, "total_tokens": 30}}
    with pytest.raises(KimiDeployError, match="add up"):
        check_smoke(_json(200, bad_sum), 8)
    too_long = {**good, "usage": {"prompt_tokens": 18, "completion_tokens": 9, "total_tokens": 27}}
    with pytest.raises(KimiDeployError, match="implausible"):
        check_smoke(_json(200, too_long), 8)
    with pytest.raises(KimiDeployError, match="500"):
        check_smoke(_json(500, {"error": {"message": "EngineCore encountered an issue"}}), 8)
    with pytest.raises(KimiDeployError, match="finished with"):
        check_smoke(_json(200, {**good, "choices": [{"finish_reason": "abort"}]}), 8)


def test_a_queued_restart_is_judged_on_its_own_run_not_the_failed_one_it_replaces():
    clock = FakeClock()
    runs = iter([UnitState("failed", "failed", 3, 0, "old"), UnitState("failed", "failed", 3, 0, "old"),
                 UnitState("activating", "start", 0, 0, "new")])
    state = wait_for_new_invocation(lambda: next(runs), "old", timeout_s=60, interval_s=1, clock=clock,
                                    sleep=clock.sleep)
    assert state.invocation_id == "new" and clock.now == 2
    # judged against the new run, the old "failed" state does not fail the wait
    later = iter([UnitState("activating", "start-post", 0, 55, "new")] * 3)
    waited = wait_healthy("http://x", timeout_s=60, interval_s=5, unit_state=lambda: next(later), initial=state,
                          clock=clock, sleep=clock.sleep, probe=_probe_sequence([0, 200]))
    assert waited == 5


def test_a_restart_systemd_never_runs_times_out():
    clock = FakeClock()
    with pytest.raises(KimiDeployError, match="did not start a new run"):
        wait_for_new_invocation(lambda: UnitState("failed", "failed", 0, 0, "old"), "old", timeout_s=10,
                                interval_s=1, clock=clock, sleep=clock.sleep)
