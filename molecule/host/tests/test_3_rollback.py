"""rollback: r1 (converge) -> r2 with other launch parameters -> rollback.yml -> r1 serving, r2 kept;
rollback.yml again -> r2; then a release whose smoke check fails -> r2 serves again by itself.

The steps build on each other and run in file order.
"""

import time

from kimi_molecule import (
    ROOT,
    api,
    current_release,
    flag_value,
    main_pid,
    process_args,
    record_timing,
    release_json,
    run_playbook,
)

STATE: dict[str, str] = {}


def _serving(host, release_id: str, max_num_seqs: int) -> None:
    args = process_args(host, main_pid(host))
    assert args[1] == f"{ROOT}/releases/{release_id}/venv/bin/kimi-vllm", args
    assert flag_value(args, "--max-num-seqs") == str(max_num_seqs)
    status, _unused = api(host, "/v1/models")
    assert status == 200


def test_r1_serves_after_converge(host):
    STATE["r1"] = current_release(host)
    _serving(host, STATE["r1"], 4)


def test_r2_with_other_launch_parameters_is_a_new_release(host):
    started = time.monotonic()
    run_playbook("deploy.yml", "-l", "gpu_nodes", "-e", "kimi_concurrency=2")
    record_timing("deploy r2 (config-only release, venv reused)", time.monotonic() - started)
    STATE["r2"] = current_release(host)
    assert STATE["r2"] != STATE["r1"]
    _serving(host, STATE["r2"], 2)
    assert release_json(host, STATE["r2"])["venv_key"] == release_json(host, STATE["r1"])["venv_key"]


def test_rollback_returns_to_r1_and_keeps_r2(host):
    started = time.monotonic()
    run_playbook("rollback.yml", "-l", "gpu_nodes")
    record_timing("rollback.yml to healthy", time.monotonic() - started)
    assert current_release(host) == STATE["r1"]
    _serving(host, STATE["r1"], 4)
    assert host.file(f"{ROOT}/releases/{STATE['r2']}/release.json").exists
    assert len(release_json(host, STATE["r1"])["activations"]) == 2


def test_rollback_again_toggles_to_the_release_that_served_before(host):
    pid = main_pid(host)
    run_playbook("rollback.yml", "-l", "gpu_nodes", "-e", f"kimi_rollback_to={STATE['r1']}")
    assert current_release(host) == STATE["r1"] and main_pid(host) == pid  # naming the current one changes nothing
    proc = run_playbook("rollback.yml", "-l", "gpu_nodes")
    assert current_release(host) == STATE["r2"], proc.stdout[-2000:]
    _serving(host, STATE["r2"], 2)  # r2 serves from here on: the next test fails a release on top of it


def test_release_failing_its_smoke_check_is_replaced_by_the_previous_one(host):
    pid_before = main_pid(host)
    started = time.monotonic()
    # A context shorter than the smoke prompt: vLLM starts, /health is fine, the chat gets a 400.
    proc = run_playbook("deploy.yml", "-l", "gpu_nodes", "-e", "kimi_max_input_tokens=8",
                        "-e", "kimi_max_output_tokens=8", check=False)
    record_timing("failed release detected and previous serving again", time.monotonic() - started)
    out = " ".join(proc.stdout.split())  # the callback wraps long messages
    assert proc.returncode != 0
    assert f"Release {STATE['r2']} is serving again" in out
    assert "smoke chat completion answered 400" in out
    assert current_release(host) == STATE["r2"]
    _serving(host, STATE["r2"], 2)
    assert main_pid(host) != pid_before  # restarted on the restored release
    failed = sorted(
        (release_json(host, p.split("/")[-1]) for p in host.check_output(f"ls -d {ROOT}/releases/*").split()),
        key=lambda doc: doc["created_at"])[-1]
    assert failed["id"] not in (STATE["r1"], STATE["r2"])
    assert failed["acceptance"]["verdict"] == "failed"
    assert failed["ledger"][-1]["accepted"] is False
