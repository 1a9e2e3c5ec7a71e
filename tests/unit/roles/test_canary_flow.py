"""The canary in deploy.yml (kimi_canary_enabled): the real playbook, flow roles and kimi_lb against a real HAProxy
(test_lb's balancer, replicas h200-1 and h200-a-1), the phase roles stubbed as in test_lb_flow.py.

h200-1 is deployed (--limit), h200-a-1 is the other replica. Each one's vLLM /metrics is a real HTTP server on
loopback at its kimi_port (canary_scrapes.metrics_server): the recorded vLLM 0.32.0 scrape at the start of the
window, a scrape derived from it at the end. Each stub step prints the canary's admin state and weight on the
balancer, so the test sees where the canary sits: after acceptance (drained), at its share (weight 11: a tenth of
the traffic beside one other replica) when the verdict is written, and back at its full weight 100 after it; a
rollback verdict drains it and goes down the restore path. The ledger stub writes down what the row is given.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from canary_scrapes import metrics_server, served
from haproxy_run import needs_haproxy, weight
from kimi_deploy.io.deploy_lock import acquire
from task_tree import stub_collection

# The running balancer (a fixture of test_lb) and the stubbed flow (test_lb_flow).
from test_lb import fleet  # noqa: F401  # pylint: disable=unused-import
from test_lb_flow import REAL_ROLES, STUBS, _run, _step

SHOWN = "admin_label('{sock}', 'kimi_replicas', 'h200-1') + ':' + str(weight('{sock}', 'kimi_replicas', 'h200-1'))"
# What the flow gives the ledger for the row's canary field, written where the test reads it.
LEDGER = {"name": "Stub ledger row", "ansible.builtin.copy": {"content": "{{ kimi_ledger_canary | to_json }}",
                                                              "dest": "{{ ledger_out }}", "mode": "0600"}}


@pytest.fixture
def collection(tmp_path) -> Path:
    return stub_collection(tmp_path, REAL_ROLES, {**STUBS, "kimi_ledger": {"main": [_step("record"), LEDGER]}})


@contextlib.contextmanager
def replicas(canary_end: str, other_end: str, *canary_later: str) -> Iterator[dict]:
    """The two replicas' inventory, each with its /metrics server at its kimi_port (the canary's answers
    ``canary_later`` at the scrapes after the window's end)."""
    with metrics_server(canary_end, *canary_later) as canary, metrics_server(other_end) as other:
        yield {"h200-1": {"kimi_port": canary.server_address[1]}, "h200-a-1": {"kimi_port": other.server_address[1]}}


def _deploy(collection, tmp_path, sock, hosts, **overrides):
    return _run(collection, tmp_path, sock, "deploy.yml", gpu_hosts=hosts, limit="h200-1,lb-local", shown=SHOWN,
                kimi_bind_host="127.0.0.1", kimi_canary_duration_s=1, ledger_out=str(tmp_path / "row-canary.json"),
                **overrides)


def _ledger(tmp_path: Path) -> dict:
    return json.loads((tmp_path / "row-canary.json").read_text())


GOOD = served(ok=100, ttft_s={0.05: 100})
OTHERS = served(ok=300, ttft_s={0.05: 300})
FAILING = served(ok=80, server_errors=20, ttft_s={0.05: 100})


@needs_haproxy
def test_without_the_flag_there_is_no_canary(fleet, collection, tmp_path):  # noqa: F811
    _port, sock, _unused, _unused = fleet
    with replicas(GOOD, OTHERS) as hosts:
        rc, steps, out = _deploy(collection, tmp_path, sock, hosts)
    assert rc == 0, out[-4000:]
    assert steps == ["prepare UP:100", "activate DRAIN:100", "start DRAIN:100", "acceptance DRAIN:100",
                     "verdict DRAIN:100", "record UP:100"], out[-4000:]
    assert "Compare the canary" not in out and _ledger(tmp_path) == {}


@needs_haproxy
def test_a_good_canary_serves_its_share_between_acceptance_and_its_promotion(fleet, collection, tmp_path):  # noqa: F811
    _port, sock, _unused, _unused = fleet
    # The run's deploy lock (taken as kimi_preflight's lock.yml would): the window refreshes its heartbeat.
    lock = tmp_path / "deploy.lock"
    acquire(lock, "the canary test", "run-a", timeout_s=0)
    taken = json.loads(lock.read_text())["heartbeat_at"]
    with replicas(GOOD, OTHERS) as hosts:
        rc, steps, out = _deploy(collection, tmp_path, sock, hosts, kimi_canary_enabled=True,
                                 kimi_preflight_lock={"path": str(lock), "run_id": "run-a", "interval_s": 0.3})
    assert rc == 0, out[-4000:]
    assert steps == ["prepare UP:100", "activate DRAIN:100", "start DRAIN:100", "acceptance DRAIN:100",
                     "verdict UP:11", "record UP:100"], out[-4000:]
    assert json.loads(lock.read_text())["heartbeat_at"] > taken, "the canary's window did not keep the lock alive"
    row = _ledger(tmp_path)
    assert row["verdict"] == "promote" and row["inconclusive"] is False
    assert row["figures"]["canary"]["requests"] == 100 and row["figures"]["others"]["requests"] == 300
    assert row["reason"].startswith("promote: error rate 0.00% (0/100)")
    assert weight(sock, "kimi_replicas", "h200-1") == 100


@needs_haproxy
def test_a_failing_canary_is_drained_and_goes_down_the_restore_path(fleet, collection, tmp_path):  # noqa: F811
    _port, sock, _unused, _unused = fleet
    with replicas(FAILING, OTHERS) as hosts:
        rc, steps, out = _deploy(collection, tmp_path, sock, hosts, kimi_canary_enabled=True)
    assert rc != 0, out[-4000:]
    # No verdict "passed"; the restore finds it drained (the flow restarts the restored release: start);
    # back at full weight once the last accepted one serves.
    assert steps == ["prepare UP:100", "activate DRAIN:100", "start DRAIN:100", "acceptance DRAIN:100",
                     "restore DRAIN:11", "start DRAIN:11", "record UP:100"], out[-4000:]
    row = _ledger(tmp_path)
    assert row["verdict"] == "rollback" and "error rate 20.00% (20/100)" in row["reason"]
    assert "canary rollback: error rate 20.00%" in out  # the deploy's failure names it
    assert weight(sock, "kimi_replicas", "h200-1") == 100


@needs_haproxy
def test_a_quiet_window_is_inconclusive_and_rolled_back_by_default(fleet, collection, tmp_path):  # noqa: F811
    _port, sock, _unused, _unused = fleet
    with replicas(served(ok=3), OTHERS) as hosts:
        rc, steps, out = _deploy(collection, tmp_path, sock, hosts, kimi_canary_enabled=True,
                                 kimi_canary_max_duration_s=1)  # no time to go on
    assert rc != 0 and steps[-3:] == ["restore DRAIN:11", "start DRAIN:11", "record UP:100"], out[-4000:]
    row = _ledger(tmp_path)
    assert row["verdict"] == "rollback" and row["inconclusive"] is True and "min_requests=50" in row["reason"]


@needs_haproxy
def test_a_window_with_too_few_requests_goes_on_and_is_judged_whole(fleet, collection, tmp_path):  # noqa: F811
    """14 requests in the first second, fewer than 20: the window goes on (1 s: 20 at that rate with a quarter
    more), and the whole of it, 100 requests, is judged."""
    _port, sock, _unused, _unused = fleet
    with replicas(served(ok=14, ttft_s={0.05: 14}), OTHERS, GOOD) as hosts:
        rc, steps, out = _deploy(collection, tmp_path, sock, hosts, kimi_canary_enabled=True,
                                 kimi_canary_min_requests=20, kimi_canary_max_duration_s=30)
    assert rc == 0, out[-4000:]
    assert steps[-2:] == ["verdict UP:11", "record UP:100"], out[-4000:]
    row = _ledger(tmp_path)
    assert row["verdict"] == "promote" and row["figures"]["canary"]["requests"] == 100, row
    assert row["figures"]["window_s"] == 2
    assert "Go on with the window when too few requests came" in out


@needs_haproxy
def test_with_no_other_replica_there_is_nothing_to_compare_and_no_canary(fleet, collection, tmp_path):  # noqa: F811
    _port, sock, _unused, _unused = fleet
    with replicas(GOOD, OTHERS) as hosts:
        rc, steps, out = _deploy(collection, tmp_path, sock, {"h200-1": hosts["h200-1"]}, kimi_canary_enabled=True)
    assert rc == 0 and steps[-2:] == ["verdict DRAIN:100", "record UP:100"], out[-4000:]
    assert _ledger(tmp_path) == {}
