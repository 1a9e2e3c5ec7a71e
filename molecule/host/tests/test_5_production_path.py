"""host, part 5: the production path when a run dies or a rollback fails (issue 11, 2 and 3).

Runs after the earlier files of this scenario, on kimi-m-host-1 (10.89.50.11, port 8000), which
they leave serving an accepted release. Each test starts from and leaves a host that serves an
accepted release. vLLM restarts are the cost here (~40-60 s each on the CI machine): the tests
reuse two releases, R1 (kimi_concurrency=2, or 3 if the serving one has 2) and R2
(kimi_port=8001), and re-run with the accepted release's own inputs.

Killing a run: ansible-playbook in its own process group, read until the task of interest
starts (the switch has happened by then: current moved), then SIGKILL the whole group. The lock
the killed run held is broken with kimi_preflight_lock_break=true, as an operator would.
"""

import json
import os
import signal
import subprocess
import time

import pytest
from kimi_molecule import (
    REPO,
    ROOT,
    UNIT,
    concurrency_of,
    current_release,
    healthy,
    record_timing,
    release_json,
    run_playbook,
    wait_until,
)

HEALTH_TASK = "TASK [kimi.deploy.kimi_vllm : Wait until vLLM serves the model"
ACCEPTANCE_TASK = "TASK [kimi.deploy.kimi_acceptance : Run the acceptance suite"
BREAK_LOCK = ("-e", "kimi_preflight_lock_break=true")
STATE: dict[str, str] = {}


@pytest.fixture(autouse=True)
def serving_host(host):
    wait_until(lambda: healthy(host), 300)
    yield
    host.run("rm -f /run/kimi-deploy/deploy.lock")


def _out(proc) -> str:
    return " ".join(proc.stdout.split())  # the callback wraps long messages


def _verdict(host, release: str) -> str:
    return (release_json(host, release).get("acceptance") or {}).get("verdict", "")


def _kill_deploy_at(host, marker: str, *extra: str, settle_s: float = 0.0) -> list[str]:
    """Start deploy.yml, SIGKILL it (the whole process group) once ``marker`` starts; return its output."""
    cmd = ["ansible-playbook", str(REPO / "deploy.yml"), "-i", os.environ["MOLECULE_INVENTORY_FILE"],
           "-l", "gpu_nodes", *extra]
    env = {k: v for k, v in os.environ.items() if k != "ANSIBLE_FORCE_COLOR"} | {"ANSIBLE_NOCOLOR": "1"}
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, start_new_session=True)
    seen = []
    try:
        for line in proc.stdout:
            seen.append(line)
            if marker in line:
                time.sleep(settle_s)
                break
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert any(marker in line for line in seen), "the run ended before " + marker + ":\n" + "".join(seen[-80:])
    return seen


def _other_concurrency(host) -> str:
    """A kimi_concurrency that makes a release other than the serving one (2, or 3 if it is 2)."""
    return "kimi_concurrency=" + ("3" if concurrency_of(host, current_release(host)) == "2" else "2")


def _rerun_puts_back(host, accepted: str, left: str) -> None:
    """A re-run first puts the last accepted release back and says why; whatever it deploys then is
    judged (here the accepted release's own inputs: nothing new to start). The killed run's release
    never serves unjudged."""
    started = time.monotonic()
    proc = run_playbook("deploy.yml", "-l", "gpu_nodes", "-e", f"kimi_concurrency={concurrency_of(host, accepted)}",
                        *BREAK_LOCK)
    record_timing("re-run after a run killed after its switch", time.monotonic() - started)
    out = _out(proc)
    assert f"current pointed at {left}, which was never accepted" in out, proc.stdout[-4000:]
    assert f"The last accepted release {accepted} serves again" in out
    final = current_release(host)
    assert final != left and _verdict(host, final) == "passed" and healthy(host)
    # Never judged, so never a rollback target: the successful re-run's prune removes it first
    # (keep-N counts accepted releases only).
    assert not host.file(f"{ROOT}/releases/{left}").exists


def test_run_killed_in_the_health_wait_after_the_switch(host):
    accepted = current_release(host)
    assert _verdict(host, accepted) == "passed"
    _kill_deploy_at(host, HEALTH_TASK, "-e", _other_concurrency(host))
    left = current_release(host)
    assert left != accepted, "the run was killed before its switch"
    assert _verdict(host, left) == "pending"  # written with the switch
    STATE["r1"] = left
    _rerun_puts_back(host, accepted, left)


def test_run_killed_during_acceptance_after_the_switch(host):
    accepted = current_release(host)
    _kill_deploy_at(host, ACCEPTANCE_TASK, "-e", _other_concurrency(host), *BREAK_LOCK, settle_s=2)
    left = current_release(host)
    assert left != accepted and _verdict(host, left) == "pending"
    _rerun_puts_back(host, accepted, left)


def test_rollback_after_a_port_change_serves_the_previous_release_on_its_own_port(host):
    accepted = current_release(host)
    run_playbook("deploy.yml", "-l", "gpu_nodes", "-e", "kimi_port=8001")
    STATE["r2"] = current_release(host)
    assert STATE["r2"] != accepted and _verdict(host, STATE["r2"]) == "passed"
    assert release_json(host, STATE["r2"])["inputs"]["service"]["port"] in (8001, "8001")
    unit = host.file(f"/etc/systemd/system/{UNIT}").content_string
    assert "8001" not in unit and "kimi-wait-http-ok $MAINPID" in unit  # the release names the port
    started = time.monotonic()
    proc = run_playbook("rollback.yml", "-l", "gpu_nodes", check=False)
    record_timing("rollback across a port change", time.monotonic() - started)
    assert proc.returncode == 0, proc.stdout[-4000:]
    assert current_release(host) == accepted and healthy(host)  # healthy() asks port 8000
    assert not host.socket("tcp://0.0.0.0:8001").is_listening


def test_rollback_whose_target_fails_its_health_gate_puts_back_what_served(host):
    served = current_release(host)
    target = STATE.get("r2")
    if not target:
        pytest.skip("needs the release of the port-change test")
    serve = f"{ROOT}/releases/{target}/serve"
    host.run(f"cp -p {serve} /root/serve.saved && sed -i 's/^exec /exit 3; exec /' {serve}")
    try:
        started = time.monotonic()
        proc = run_playbook("rollback.yml", "-l", "gpu_nodes", "-e", f"kimi_rollback_to={target}", check=False)
        record_timing("rollback to a broken target, previous serving again", time.monotonic() - started)
    finally:
        host.run(f"cp -p /root/serve.saved {serve}")
    out = _out(proc)
    assert proc.returncode != 0, proc.stdout[-4000:]
    assert f"to {target} failed at" in out and "vLLM did not become healthy" in out, proc.stdout[-4000:]
    assert f"Release {served} serves again." in out
    assert current_release(host) == served and healthy(host)
    assert _verdict(host, target) == "failed"
    rows = release_json(host, target).get("ledger") or []
    assert any("rollback" in json.dumps(row) for row in rows), rows
