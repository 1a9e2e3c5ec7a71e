"""The fleet balancer (roles/kimi_lb): maxconn from the plan, the rendered haproxy.cfg run for real, and
drain/ready through HAProxy's runtime API (plugins/module_utils/kimi_deploy/io/haproxy_runtime.py).

Two stand-in upstreams (tests/unit/haproxy_run.py) play two replicas' front doors; plain HTTP
between balancer and replicas here, TLS is the front door test's subject.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import kimi_haproxy_server
import pytest
import yaml
from haproxy_run import check_config, free_port, haproxy, needs_haproxy, upstream
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.io.haproxy_runtime import (
    peers_left_serving,
    server_admin_state,
    server_stat,
    server_weight,
    serves,
    set_server_state,
    set_server_weight,
    wait_for_serving_peer,
    wait_idle,
)
from kimi_frontdoor import kimi_lb_servers, kimi_replica_heads, kimi_without_frontdoor
from module_harness import run_module
from unit_render import REPO, render_template, role_defaults, template_value

TEMPLATES = REPO / "roles/kimi_lb/templates"
GROUPS = {"gpu_nodes": ["h200-1", "h200-a-1", "h200-a-2"], "k3_a": ["h200-a-1", "h200-a-2"]}


def hostvars() -> dict:
    return {
        "h200-1": {"ansible_host": "127.0.0.1", "kimi_plan_result": {"max_num_seqs": 64}},
        "h200-a-1": {"ansible_host": "127.0.0.1", "kimi_replica_group": "k3_a", "kimi_lb_max_num_seqs": 256},
        "h200-a-2": {"ansible_host": "127.0.0.1", "kimi_replica_group": "k3_a"},
    }


def test_heads_are_one_per_replica():
    assert kimi_replica_heads(GROUPS["gpu_nodes"], hostvars(), GROUPS) == ["h200-1", "h200-a-1"]


def test_maxconn_follows_each_replicas_plan():
    servers = kimi_lb_servers(["h200-1", "h200-a-1"], hostvars(), 8443, 1.5)
    assert [(s["name"], s["maxconn"], s["port"]) for s in servers] == [("h200-1", 96, 8443), ("h200-a-1", 384, 8443)]


def test_maxconn_falls_back_to_the_plan_of_the_release_that_serves():
    """fleet.yml runs without a plan of its own: the serving release's plan (kimi_release_serving) sizes it."""
    serving = {"h200-a-2": {"kimi_release_serving": {"id": "r1", "plan": {"max_num_seqs": 12}}}}
    assert kimi_lb_servers(["h200-a-2"], {**hostvars(), **serving}, 8443, 2.0)[0]["maxconn"] == 24
    planned = {"h200-1": {**hostvars()["h200-1"], "kimi_release_serving": {"plan": {"max_num_seqs": 12}}}}
    assert kimi_lb_servers(["h200-1"], planned, 8443)[0]["maxconn"] == 64  # this run's plan comes first


def test_heads_without_a_front_door_are_named():
    """The balancer and Prometheus speak TLS to the entries: a head whose inventory has none is named."""
    hv = {"h1": {"kimi_frontdoor_enabled": True}, "h2": {"kimi_frontdoor_enabled": "false"},
          "h3": {"kimi_frontdoor_enabled": "yes"}, "h4": {}}
    assert kimi_without_frontdoor(["h1", "h2", "h3", "h4"], hv) == ["h2", "h4"]


def test_a_replica_without_max_num_seqs_is_refused():
    with pytest.raises(ValueError, match="no max_num_seqs"):
        kimi_lb_servers(["h200-a-2"], hostvars(), 8443)
    assert kimi_lb_servers(["h200-a-2"], hostvars(), 8443, 1.0, 32)[0]["maxconn"] == 32


def _row(status: str, weight: int = 100) -> dict[str, str]:
    return {"status": status, "weight": str(weight)}


def test_a_server_serves_only_up_at_a_weight():
    assert [serves(_row(s)) for s in ("UP", "UP 1/3", "no check", "DOWN", "DOWN 1/2", "DRAIN", "MAINT", "NOLB",
                                      "MAINT (via)")] == [True, True, True] + [False] * 6
    assert not serves(_row("UP", 0))


def test_draining_the_last_serving_replica_is_not_safe():
    """The CI run with the rollout on: a replica still restarting after a killed engine (DOWN), and the rolling
    deploy drained the other, the only one serving: 156 of 916 requests got 503."""
    fleet = {"a": _row("UP"), "b": _row("DOWN 1/2"), "c": _row("MAINT")}
    found = peers_left_serving(fleet, "a", [])
    assert not found["safe"] and found["peers"] == {"b": "DOWN 1/2", "c": "MAINT"} and found["others"] == ["b", "c"]
    assert peers_left_serving({**fleet, "b": _row("UP")}, "a", [])["safe"]
    assert peers_left_serving(fleet, "b", [])["safe"]  # b serves nothing: draining it takes nothing away
    alone = peers_left_serving({"a": _row("UP")}, "a", [])
    assert alone["safe"] and alone["alone"]  # the only replica: nothing could take over
    # The same batch drains b too: it counts as gone although it is UP now.
    batch = peers_left_serving({"a": _row("UP"), "b": _row("UP")}, "a", ["a", "b", "worker-of-b"])
    assert not batch["safe"] and batch["others"] == []
    with pytest.raises(KimiDeployError, match="no server x in this backend; it has: a, b, c"):
        peers_left_serving(fleet, "x", [])


def lb_variables(tmp: Path, port: int, stats_port: int, upstream_port: int, **overrides) -> dict:
    values = {"groups": GROUPS, "hostvars": hostvars(), "kimi_lb_config_dir": str(tmp), "kimi_lb_run_user": "",
              "kimi_lb_tls": False, "kimi_lb_upstream_tls": False, "kimi_lb_bind_address": "127.0.0.1",
              "kimi_lb_port": port, "kimi_lb_stats_port": stats_port, "kimi_lb_upstream_port": upstream_port,
              "kimi_lb_runtime_socket": str(tmp / "admin.sock"), "kimi_lb_check_interval": "200ms",
              "kimi_lb_check_fall": 1, "kimi_lb_check_rise": 1,
              "kimi_lb_maxconn": 1000}  # the unit raises LimitNOFILE; a test process may not
    return role_defaults("kimi_lb", **{**values, **overrides})


@needs_haproxy
def test_rendered_config_with_tls_is_valid(tmp_path):
    """TLS on both sides (a throwaway certificate and CA); the run below is plain HTTP."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", str(tmp_path / "k.pem"), "-out", str(tmp_path / "c.pem"), "-days", "1",
                    "-subj", "/CN=kimi-lb-test"], check=True, capture_output=True)
    (tmp_path / "tls.pem").write_text((tmp_path / "c.pem").read_text() + (tmp_path / "k.pem").read_text())
    (tmp_path / "upstream-ca.pem").write_text((tmp_path / "c.pem").read_text())
    values = lb_variables(tmp_path, 443, 8406, 8443, kimi_lb_tls=True, kimi_lb_upstream_tls=True,
                          kimi_lb_upstream_ca="(the CA's PEM)")
    config = tmp_path / "haproxy.cfg"
    config.write_text(render_template(TEMPLATES / "haproxy.cfg.j2", values))
    result = check_config(config)
    assert result.returncode == 0, result.stdout + result.stderr
    text = config.read_text()
    assert "balance leastconn" in text and "option httpchk GET /health" in text
    assert "server h200-1 127.0.0.1:8443 maxconn 64" in text and "server h200-a-1 127.0.0.1:8443 maxconn 256" in text
    assert "h200-a-2" not in text  # a worker of a replica is not a server


@pytest.fixture
def fleet(tmp_path):
    """The balancer before two replicas (stand-ins): (port, socket, {server: upstream}, exporter port)."""
    with upstream() as one, upstream() as two:
        port, stats_port = free_port(), free_port()
        values = lb_variables(tmp_path, port, stats_port, 0)
        config = tmp_path / "haproxy.cfg"
        text = render_template(TEMPLATES / "haproxy.cfg.j2", values)
        # Two replicas on one address: each server its own stand-in's port.
        text = text.replace("server h200-1 127.0.0.1:0", f"server h200-1 127.0.0.1:{one.port}")
        text = text.replace("server h200-a-1 127.0.0.1:0", f"server h200-a-1 127.0.0.1:{two.port}")
        config.write_text(text)
        with haproxy(config, [port, stats_port], tmp_path / "haproxy.log"):
            sock = str(tmp_path / "admin.sock")
            wait_until_both_up(sock)
            yield port, sock, {"h200-1": one, "h200-a-1": two}, stats_port


def wait_until_both_up(sock: str, seconds: float = 90) -> None:
    # Generous: on a loaded CI host the admin socket and the first health checks can take seconds.
    deadline = time.monotonic() + seconds
    while not _both_up(sock):
        assert time.monotonic() < deadline, "the stand-ins never passed their health checks"
        time.sleep(0.2)


def status_of(port: int, path: str) -> int | str:
    """The status of one request, or the error that ended it (a thread must not raise)."""
    try:
        return get(port, path)[0]
    except (OSError, ValueError) as error:
        return type(error).__name__


def _both_up(sock: str) -> bool:
    """Both UP at full weight: on a loaded CI host a stand-in can miss its first check, and coming back it
    ramps its weight over the template's 30 s slowstart (`show stat`'s throttle column), which skews shares."""
    try:
        rows = [server_stat(sock, "kimi_replicas", s) for s in ("h200-1", "h200-a-1")]
    except (OSError, KimiDeployError):  # the admin socket is not listening yet
        return False
    return all(row["status"] == "UP" and not row.get("throttle") for row in rows)


def _downs(sock: str) -> list[str]:
    """How many times each stand-in went from UP to DOWN (`show stat`'s chkdown)."""
    return [server_stat(sock, "kimi_replicas", s)["chkdown"] for s in ("h200-1", "h200-a-1")]


def get(port: int, path: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, (json.loads(body) if body else {})


@needs_haproxy
def test_drained_replica_gets_no_new_request_and_ready_brings_it_back(fleet):
    port, sock, replicas, _unused = fleet
    assert set_server_state(sock, "kimi_replicas", "h200-1", "drain") is True
    assert set_server_state(sock, "kimi_replicas", "h200-1", "drain") is False  # already drained
    assert server_admin_state(sock, "kimi_replicas", "h200-1") == "drain"
    answered = {get(port, "/v1/models")[1]["port"] for _unused in range(6)}
    assert answered == {replicas["h200-a-1"].port}
    assert set_server_state(sock, "kimi_replicas", "h200-1", "ready") is True
    answered = {get(port, "/v1/models")[1]["port"] for _unused in range(8)}
    assert answered == {replicas["h200-1"].port, replicas["h200-a-1"].port}


@needs_haproxy
def test_drain_waits_for_the_request_in_flight(fleet):
    port, sock, _replicas, _unused = fleet
    set_server_state(sock, "kimi_replicas", "h200-a-1", "maint")  # the slow request goes to h200-1
    slow = threading.Thread(target=get, args=(port, "/slow?s=2"))
    slow.start()
    deadline = time.monotonic() + 5
    while int(server_stat(sock, "kimi_replicas", "h200-1")["scur"]) == 0:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    set_server_state(sock, "kimi_replicas", "h200-1", "drain")
    with pytest.raises(KimiDeployError, match="still has 1 connection"):
        wait_idle(sock, "kimi_replicas", "h200-1", timeout_s=0.3, poll_s=0.1)
    assert wait_idle(sock, "kimi_replicas", "h200-1", timeout_s=10, poll_s=0.1) > 0.5
    slow.join()


@needs_haproxy
def test_failed_health_check_takes_a_replica_out(fleet):
    port, sock, replicas, _unused = fleet
    replicas["h200-1"].healthy = False
    deadline = time.monotonic() + 10
    while server_stat(sock, "kimi_replicas", "h200-1")["status"].startswith("UP"):
        assert time.monotonic() < deadline, "the failing replica stayed UP"
        time.sleep(0.1)
    assert {get(port, "/v1/models")[1]["port"] for _unused in range(4)} == {replicas["h200-a-1"].port}


@needs_haproxy
def test_a_replica_failing_its_checks_is_drained_and_put_back_all_the_same(fleet):
    """The re-run of a killed deploy finds its replica DOWN (its vLLM restarting): the drain must take and
    read back as drain although `show stat` says DOWN either way, and ready must undo it."""
    _port, sock, replicas, _unused = fleet
    replicas["h200-1"].healthy = False
    try:
        deadline = time.monotonic() + 10
        while not server_stat(sock, "kimi_replicas", "h200-1")["status"].startswith("DOWN"):
            assert time.monotonic() < deadline, "the failing replica did not go DOWN"
            time.sleep(0.1)
        assert set_server_state(sock, "kimi_replicas", "h200-1", "drain") is True
        assert server_admin_state(sock, "kimi_replicas", "h200-1") == "drain"
        assert set_server_state(sock, "kimi_replicas", "h200-1", "drain") is False
        assert set_server_state(sock, "kimi_replicas", "h200-1", "ready") is True
        assert server_admin_state(sock, "kimi_replicas", "h200-1") == "ready"
    finally:
        replicas["h200-1"].healthy = True
        deadline = time.monotonic() + 15
        while not server_stat(sock, "kimi_replicas", "h200-1")["status"].startswith("UP"):
            assert time.monotonic() < deadline, "the replica did not come back UP"
            time.sleep(0.1)


@needs_haproxy
def test_admin_state_of_an_unknown_server_or_backend_is_an_error(fleet):
    _port, sock, _replicas, _unused = fleet
    with pytest.raises(KimiDeployError, match="no server kimi_replicas/h200-9"):
        server_admin_state(sock, "kimi_replicas", "h200-9")
    with pytest.raises(KimiDeployError, match="show servers state nowhere"):
        server_admin_state(sock, "nowhere", "h200-1")


def post(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", path, body=b'{"model": "m"}', headers={"Content-Type": "application/json"})
    status = conn.getresponse().status
    conn.close()
    return status


@needs_haproxy
def test_metrics_are_refused_at_the_balancer(fleet):
    """Through the balancer every request comes from its address, which a front door may count as a scrape
    network: /metrics stops here."""
    port, _sock, replicas, _unused = fleet
    for path in ("/metrics", "/metrics/"):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", path)
        assert conn.getresponse().status == 403, path
        conn.close()
    assert not any(seen["path"].startswith("/metrics") for r in replicas.values() for seen in r.seen)
    assert get(port, "/v1/models")[0] == 200


@needs_haproxy
def test_a_replica_whose_vllm_is_gone_has_its_requests_sent_to_another(fleet):
    """Its front door answers 503 (vLLM not listening): the balancer retries the POST on the other replica."""
    port, _sock, replicas, _unused = fleet
    replicas["h200-1"].status = 503
    assert [post(port, "/v1/chat/completions") for _unused in range(6)] == [200] * 6
    assert replicas["h200-1"].seen, "no request reached the failing replica: nothing was retried"


@needs_haproxy
def test_a_dying_engine_is_marked_down_by_its_own_errors_and_500_is_not_retried(fleet):
    """A 500 may come from the request itself (a request that crashed an engine must not crash the next):
    the client gets it; three in a row mark the replica down without waiting for a failed health check."""
    port, sock, replicas, _unused = fleet
    replicas["h200-1"].status = 500
    answers = [post(port, "/v1/chat/completions") for _unused in range(10)]
    assert answers.count(500) == len(replicas["h200-1"].seen) >= 3, answers  # every 500 reached the client
    assert int(server_stat(sock, "kimi_replicas", "h200-1")["chkdown"]) >= 1  # marked down (checks bring it back)


@needs_haproxy
def test_module_drains_reports_changes_honestly_and_checks_in_check_mode(fleet):
    _port, sock, _unused, _unused = fleet
    args = {"socket": sock, "server": "h200-1", "state": "drain", "poll_s": 0.1}
    checked = run_module(kimi_haproxy_server, args, check_mode=True)
    assert checked["changed"] is True and checked["previous"] == "ready"
    assert server_admin_state(sock, "kimi_replicas", "h200-1") == "ready"  # check mode changed nothing
    done = run_module(kimi_haproxy_server, args)
    assert done["changed"] is True and done["status"].startswith("DRAIN") and done["waited_s"] >= 0
    assert run_module(kimi_haproxy_server, args)["changed"] is False
    missing = run_module(kimi_haproxy_server, {**args, "server": "nope"})
    assert missing["failed"] and "h200-1" in missing["msg"]


def test_servers_come_from_the_role_vars(tmp_path):
    servers = template_value("__kimi_lb_servers", lb_variables(tmp_path, 1, 2, 8443))
    assert [s["name"] for s in servers] == ["h200-1", "h200-a-1"]


@needs_haproxy
def test_exporter_serves_the_recorded_metric_names(fleet):
    """tests/fixtures/haproxy-metrics (what test_monitoring.py checks the rules and dashboard against)
    is what this HAProxy exports; re-record it from this exporter when the package changes."""
    _port, _sock, _unused, stats_port = fleet

    def names(text: str) -> set[str]:
        return {line.split("{")[0].split(" ")[0] for line in text.splitlines() if line and not line.startswith("#")}

    def scrape() -> str:
        conn = http.client.HTTPConnection("127.0.0.1", stats_port, timeout=10)
        conn.request("GET", "/metrics")
        text = conn.getresponse().read().decode()
        conn.close()
        return text

    recorded = names((REPO / "tests/fixtures/haproxy-metrics/haproxy-2.6.12-kimi-lb.txt").read_text())
    up = 'haproxy_server_status{proxy="kimi_replicas",server="h200-1",state="UP"} 1'
    # A server's check duration is exported once its first health check has completed; servers start UP,
    # so the fixture may hand over before that on a loaded machine, where a check that times out can also
    # hold a replica out of UP until the next one passes.
    deadline = time.monotonic() + 30
    while (names(live := scrape()) != recorded or up not in live) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert names(live) == recorded
    assert up in live, [line for line in live.splitlines() if line.startswith("haproxy_server_status")]


@needs_haproxy
def test_drain_and_ready_task_files_through_ansible(fleet, tmp_path):
    """roles/kimi_lb/tasks/drain.yml and ready.yml as a play runs them: for the replica's head, on every
    lb_nodes host (here one, local), against the running balancer."""
    _port, sock, _unused, _unused = fleet
    local = {"ansible_connection": "local", "ansible_python_interpreter": sys.executable}
    inventory = {"all": {"hosts": {"h200-1": {}}, "vars": local,
                         "children": {"lb_nodes": {"hosts": {"lb-local": {}}}}}}
    play = [{"hosts": "h200-1", "gather_facts": False, "vars": {"kimi_lb_runtime_socket": sock},
             "tasks": [{"ansible.builtin.include_role": {"name": "kimi.deploy.kimi_lb",
                                                         "tasks_from": "{{ step }}.yml"}}]}]
    (tmp_path / "inventory.yml").write_text(yaml.safe_dump(inventory))
    (tmp_path / "play.yml").write_text(yaml.safe_dump(play))
    bindir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bindir}:{os.environ.get('PATH', '')}", "ANSIBLE_NOCOLOR": "1"}
    for step, status in (("drain", "DRAIN"), ("ready", "UP")):
        proc = subprocess.run([str(bindir / "ansible-playbook"), "-i", str(tmp_path / "inventory.yml"),
                               str(tmp_path / "play.yml"), "-e", f"step={step}"],
                              cwd=REPO, env=env, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
        assert "changed=1" in proc.stdout
        assert server_stat(sock, "kimi_replicas", "h200-1")["status"].startswith(status)


@needs_haproxy
def test_a_canary_weight_gives_it_a_share_and_full_weight_gives_it_back(fleet):
    """The canary step (kimi_deploy canary.yml) sets the new release's weight to a percent of the configured 100.
    Under leastconn a weight counts only against connections in flight (idle servers take turns whatever their
    weights), so the share is measured with 20 slow requests held open at once, as long generations are."""
    port, sock, replicas, _unused = fleet
    assert server_weight(sock, "kimi_replicas", "h200-1") == (100, 100)  # the template's weight 100

    def share() -> float:
        # A measurement in which a request failed, or during which a stand-in went down, is retried: on a loaded host a
        # stand-in can miss one 200 ms health check (fall 1) and be out for a moment, so the other takes every request
        # (all answered, the share skewed), which is not what is measured here. `chkdown` counts UP-to-DOWN changes.
        statuses: list = []
        for _attempt in range(3):
            for replica in replicas.values():
                replica.seen.clear()
            statuses.clear()
            downs_before = _downs(sock)
            threads = [threading.Thread(target=lambda: statuses.append(status_of(port, "/slow?s=1.5")))
                       for _unused in range(20)]
            for thread in threads:
                thread.start()
                time.sleep(0.02)  # one at a time, so each choice sees the connections before it
            for thread in threads:
                thread.join()
            if statuses == [200] * 20 and _downs(sock) == downs_before and _both_up(sock):
                return len(replicas["h200-1"].seen) / 20
            wait_until_both_up(sock)
        raise AssertionError(f"three measurements each had a failed request or a stand-in down: {statuses}")

    assert 0.3 <= share() <= 0.7
    assert set_server_weight(sock, "kimi_replicas", "h200-1", 10) is True
    assert server_weight(sock, "kimi_replicas", "h200-1") == (10, 100)
    assert set_server_weight(sock, "kimi_replicas", "h200-1", 10) is False  # already there
    assert share() <= 0.2
    checked = run_module(kimi_haproxy_server, {"socket": sock, "server": "h200-1", "state": "ready", "weight_pct": 100},
                         check_mode=True)
    assert checked["changed"] is True and checked["previous_weight"] == 10
    assert server_weight(sock, "kimi_replicas", "h200-1") == (10, 100)  # check mode changed nothing
    done = run_module(kimi_haproxy_server, {"socket": sock, "server": "h200-1", "state": "ready", "weight_pct": 100})
    assert done["changed"] is True and done["weight"] == 100
    assert run_module(kimi_haproxy_server, {"socket": sock, "server": "h200-1", "state": "ready",
                                            "weight_pct": 100})["changed"] is False
    assert 0.3 <= share() <= 0.7


@needs_haproxy
def test_the_last_serving_replica_is_drained_only_once_another_serves(fleet):
    """h200-a-1 failing its checks (restarting): the drain of h200-1 waits for it, fails when it stays
    down with nothing changed, and goes ahead once it is back; in one batch with it, it fails at once."""
    port, sock, replicas, _unused = fleet
    args = {"socket": sock, "server": "h200-1", "state": "drain", "poll_s": 0.1, "peer_wait_s": 0.5}
    replicas["h200-a-1"].healthy = False
    deadline = time.monotonic() + 10
    while server_stat(sock, "kimi_replicas", "h200-a-1")["status"].startswith("UP"):
        assert time.monotonic() < deadline, "the failing replica stayed UP"
        time.sleep(0.1)
    checked = run_module(kimi_haproxy_server, args, check_mode=True)
    assert checked["changed"] is True and checked["peers"]["h200-a-1"].startswith("DOWN")
    assert any("would wait" in str(warning) for warning in checked.get("warnings", [])), checked
    refused = run_module(kimi_haproxy_server, args)
    assert refused["failed"] and "no replica serving: h200-a-1 (DOWN" in refused["msg"], refused
    assert "kimi_lb_drain_last_replica" in refused["msg"]
    assert server_admin_state(sock, "kimi_replicas", "h200-1") == "ready"  # nothing changed
    assert get(port, "/v1/models")[0] == 200  # still serving

    def back_up() -> None:
        time.sleep(1)
        replicas["h200-a-1"].healthy = True

    threading.Thread(target=back_up).start()
    done = run_module(kimi_haproxy_server, {**args, "peer_wait_s": 60})
    assert done["changed"] is True and done["peer_waited_s"] >= 1 and done["peers"]["h200-a-1"].startswith("UP")
    assert server_admin_state(sock, "kimi_replicas", "h200-1") == "drain"
    set_server_state(sock, "kimi_replicas", "h200-1", "ready")
    with pytest.raises(KimiDeployError, match="in the same batch drains every replica"):
        wait_for_serving_peer(sock, "kimi_replicas", "h200-1", ["h200-a-1"], timeout_s=30)
    taken = run_module(kimi_haproxy_server, {**args, "keep_one_serving": False, "leaving": ["h200-1", "h200-a-1"]})
    assert taken["changed"] is True and "peers" not in taken  # the operator took the outage
