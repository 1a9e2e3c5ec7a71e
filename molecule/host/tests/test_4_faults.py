"""faults: what the tool does when things go wrong, on a real systemd host with the real vLLM.

Each test starts from a converged, serving host and leaves one serving. Every row of the README's
"Faults and bad input" table points at a test here.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kimi_molecule import (
    REPO,
    ROOT,
    UNIT,
    api,
    concurrency_of,
    current_release,
    healthy,
    main_pid,
    record_timing,
    release_json,
    run_playbook,
    unit_property,
    wait_until,
)

LOCK = "/run/kimi-deploy/deploy.lock"
MIRRORS = Path(os.environ.get("KIMI_CACHE", "/var/cache/kimi-deploy")) / "molecule" / "mirrors"


@pytest.fixture(autouse=True)
def serving_host(host):
    """Every test starts from a host that serves, and leaves no deploy lock behind, so one failure
    does not cascade into the next test."""
    wait_until(lambda: healthy(host), 300)
    yield
    host.run(f"rm -f {LOCK}")


def _tail(proc) -> str:
    return proc.stdout[-4000:]


def _unit_files(host) -> str:
    """sha256 of the unit and its secrets file: a refused deploy must not have rendered either."""
    return host.check_output(f"sha256sum /etc/systemd/system/{UNIT} {ROOT}/shared/secrets/*.env")


def _serving_unchanged(host, release: str, unit_files: str) -> None:
    assert current_release(host) == release
    assert _unit_files(host) == unit_files
    assert healthy(host)


def test_engine_killed_with_sigkill_is_restarted_by_systemd(host):
    before = int(unit_property(host, "NRestarts"))
    engine = host.check_output("pgrep -f 'VLLM::EngineCore|EngineCore' | head -1")
    host.run(f"kill -9 {engine}")
    took = wait_until(lambda: int(unit_property(host, "NRestarts")) > before and healthy(host), 300)
    record_timing("SIGKILL of the engine -> restarted and healthy", took)


def test_second_concurrent_deploy_waits_then_stops_naming_the_holder(host):
    """Two real deploys at once: the first is held (SIGSTOP) once it has the lock, the second waits
    its timeout and stops naming the first; the first then carries on and finishes."""
    release, unit_files = current_release(host), _unit_files(host)
    same_inputs = ("-e", f"kimi_concurrency={concurrency_of(host, release)}")  # the serving release: nothing new
    cmd = ["ansible-playbook", str(REPO / "deploy.yml"), "-i", os.environ["MOLECULE_INVENTORY_FILE"], "-l", "gpu_nodes",
           *same_inputs]
    env = {k: v for k, v in os.environ.items() if k != "ANSIBLE_FORCE_COLOR"} | {"ANSIBLE_NOCOLOR": "1"}
    first = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                             start_new_session=True)
    seen = []
    try:
        for line in first.stdout:
            seen.append(line)
            if "TASK [kimi.deploy.kimi_preflight : Tell the long tasks which lock to keep alive" in line:
                break
        os.killpg(first.pid, signal.SIGSTOP)
        holder = json.loads(host.file(LOCK).content_string)["owner"]
        second = run_playbook("deploy.yml", "-l", "gpu_nodes", *same_inputs, "-e", "kimi_preflight_lock_timeout_s=4",
                              check=False)
    finally:
        os.killpg(first.pid, signal.SIGCONT)
    rest, _unused = first.communicate(timeout=900)
    out = " ".join(second.stdout.split())
    assert second.returncode != 0 and f"another deploy holds {LOCK}: {' '.join(holder.split())}" in out, _tail(second)
    assert first.returncode == 0, ("".join(seen) + rest)[-4000:]
    _serving_unchanged(host, release, unit_files)
    assert not host.file(LOCK).exists


def test_interrupted_deploy_leaves_the_serving_release_and_the_next_run_completes(host):
    release, pid, unit_files = current_release(host), main_pid(host), _unit_files(host)
    cmd = ["ansible-playbook", str(REPO / "deploy.yml"), "-i", os.environ["MOLECULE_INVENTORY_FILE"],
           "-l", "gpu_nodes", "-e", "kimi_concurrency=3"]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if "TASK [kimi.deploy.kimi_plan : Size the launch parameters" in line:
            break
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert any("kimi_plan" in line for line in seen), "".join(seen[-60:])
    _serving_unchanged(host, release, unit_files)
    assert main_pid(host) == pid
    # the killed run still holds the lock: a plain re-run says so, the operator breaks it
    refused = run_playbook("deploy.yml", "-l", "gpu_nodes", "-e", "kimi_concurrency=3",
                           "-e", "kimi_preflight_lock_timeout_s=2", check=False)
    assert refused.returncode != 0 and "kimi_preflight_lock_break=true" in " ".join(refused.stdout.split()), \
        _tail(refused)
    started = time.monotonic()
    run_playbook("deploy.yml", "-l", "gpu_nodes", "-e", "kimi_concurrency=3", "-e", "kimi_preflight_lock_break=true")
    record_timing("deploy after an interrupted one", time.monotonic() - started)
    assert current_release(host) != release and healthy(host)
    assert release_json(host, current_release(host))["acceptance"]["verdict"] == "passed"


def test_disk_full_during_the_fetch_stops_before_anything_serving_changes(host):
    release, unit_files = current_release(host), _unit_files(host)
    repo = "kimi-deploy/tiny-llama-faults"
    model = Path(os.environ.get("KIMI_CACHE", "/var/cache/kimi-deploy")) / "models" / "tiny-llama-seed1"
    if not (model / "config.json").exists():
        subprocess.run([sys.executable, str(REPO / "tools/build_tiny_model.py"), "--arch", "llama", "--seed", "1",
                        "--shards", "2", "--out", str(model)], check=True, capture_output=True)
    sha = subprocess.run([sys.executable, str(REPO / "tools/hub_mirror.py"), "publish", "--mirrors", str(MIRRORS),
                          "--repo", repo, "--model-dir", str(model)], check=True, capture_output=True,
                         text=True).stdout.strip()
    partial = f"{ROOT}/shared/models/kimi-deploy--tiny-llama-faults@{sha}.partial"
    host.run(f"mkdir -p {partial} && mount -t tmpfs -o size=256k tmpfs {partial}")
    try:
        proc = run_playbook("deploy.yml", "-l", "gpu_nodes", "-e", f"kimi_model_repo={repo}",
                            "-e", "kimi_served_model_name=tiny-llama", check=False)
    finally:
        host.run(f"umount {partial}; rm -rf {partial}")
    assert proc.returncode != 0
    assert "the disk filled up during the download" in " ".join(proc.stdout.split()), _tail(proc)
    _serving_unchanged(host, release, unit_files)


def test_corrupted_current_link_is_explained_by_preflight_and_repaired_by_rollback(host):
    release, pid = current_release(host), main_pid(host)
    host.run(f"ln -sfn releases/no-such-release {ROOT}/current")
    proc = run_playbook("deploy.yml", "-l", "gpu_nodes", check=False)
    out = " ".join(proc.stdout.split())
    assert proc.returncode != 0 and "rollback.yml" in out and "no-such-release" in out, _tail(proc)
    started = time.monotonic()
    run_playbook("rollback.yml", "-l", "gpu_nodes", "-e", f"kimi_rollback_to={release}")
    record_timing("rollback.yml repairing a corrupted current link", time.monotonic() - started)
    assert current_release(host) == release and healthy(host)
    # The process already ran that release: the link is repaired, the healthy server keeps serving.
    assert main_pid(host) == pid


def test_missing_release_directory_is_explained_and_rollback_picks_the_previous(host):
    release = current_release(host)
    host.run(f"mv {ROOT}/releases/{release} /root/moved-away")
    try:
        proc = run_playbook("deploy.yml", "-l", "gpu_nodes", check=False)
        out = " ".join(proc.stdout.split())
        assert proc.returncode != 0 and "that release is missing" in out and "rollback.yml" in out, _tail(proc)
        run_playbook("rollback.yml", "-l", "gpu_nodes")
        restored = current_release(host)
        assert restored != release and healthy(host)
    finally:
        host.run(f"mv /root/moved-away {ROOT}/releases/{release}")


@pytest.mark.parametrize(("extra", "message"), [
    ({"kimi_port": 70000}, "kimi_port=70000: must be a port"),
    ({"kimi_api_key": ""}, "the API key must be set"),
    ({"kimi_weights_source": "ftp"}, "value of kimi_weights_source must be one of"),
    ({"kimi_max_input_tokens": "many"}, "kimi_max_input_tokens"),
    ({"kimi_gpus_override": [{"name": "NVIDIA H100 80GB HBM3", "memory_total_mib": 81559, "count": 8}],
      "kimi_platform": "cuda", "kimi_gpus_override_driver": "535.183.01", "kimi_gpus_override_cuda": "12.2"},
     "older than r580"),
    ({"kimi_plan_overrides": {"tensor_parallel_size": 3}}, "tensor_parallel_size"),
    ({"kimi_require_pinned_revision": True}, "pin the 40-hex commit sha you validated"),
])
def test_bad_input_is_refused_with_a_clear_message_and_changes_nothing(host, extra, message):
    release, pid, unit_files = current_release(host), main_pid(host), _unit_files(host)
    releases = host.check_output(f"ls {ROOT}/releases")
    proc = run_playbook("deploy.yml", "-l", "gpu_nodes", "-e", json.dumps(extra), check=False)
    assert proc.returncode != 0
    assert message in " ".join(proc.stdout.split()), _tail(proc)
    assert current_release(host) == release and main_pid(host) == pid
    assert _unit_files(host) == unit_files
    assert host.check_output(f"ls {ROOT}/releases") == releases


def test_over_long_request_gets_400_and_the_server_stays_healthy(host):
    status, body = api(host, "/v1/completions", {"model": "tiny-llama", "prompt": [1] * 600, "max_tokens": 4})
    assert status == 400 and "maximum context length" in json.dumps(body)
    assert healthy(host)
