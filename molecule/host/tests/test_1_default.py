"""default: converge, idempotence (changed=0), then what is on the host."""

from kimi_molecule import (
    ROOT,
    SERVED,
    UNIT,
    api,
    current_release,
    flag_value,
    main_pid,
    process_args,
    release_json,
    unit_property,
)


def test_systemd_is_pid_one(host):
    assert host.file("/proc/1/comm").content_string.strip() == "systemd"


def test_unit_active_enabled_and_not_root(host):
    service = host.service(UNIT)
    assert service.is_running and service.is_enabled
    assert host.check_output(f"ps -o user= -p {main_pid(host)}") == "kimi-vllm"


def test_idempotence_did_not_restart_vllm(host):
    first = host.file("/root/molecule-first-invocation-id").content_string.strip()
    assert first and unit_property(host, "InvocationID") == first
    assert unit_property(host, "NRestarts") == "0"


def test_current_is_a_relative_link_to_an_accepted_release(host):
    link = host.file(f"{ROOT}/current")
    assert link.is_symlink and host.check_output(f"readlink {ROOT}/current").startswith("releases/")
    rid = current_release(host)
    doc = release_json(host, rid)
    assert doc["id"] == rid
    assert doc["acceptance"]["verdict"] == "passed"
    assert doc["model_repo"] == "kimi-deploy/tiny-llama" and len(doc["model_revision"]) == 40
    assert doc["vllm_version"] == "0.32.0+cpu"
    assert doc["inputs"]["plan"]["max_model_len"] == 512 and doc["inputs"]["plan"]["fits"] is True
    assert len(doc["activations"]) == 1
    row = doc["ledger"][-1]
    assert row["accepted"] is True and row["predicted_kv_tokens"] == row["kv_tokens_logged"]


def test_running_process_is_the_planned_command(host):
    rid = current_release(host)
    args = process_args(host, main_pid(host))
    assert args[1] == f"{ROOT}/releases/{rid}/venv/bin/kimi-vllm" and args[2] == "serve"
    plan = release_json(host, rid)["inputs"]["plan"]
    assert int(flag_value(args, "--max-model-len")) == plan["max_model_len"]
    assert int(flag_value(args, "--max-num-seqs")) == plan["max_num_seqs"]
    assert int(flag_value(args, "--kv-cache-memory-bytes")) == plan["memory"]["kv_budget_bytes"]
    assert "--api-key" not in args  # the key comes from the root-only env file, not the command line


def test_secrets_file_is_root_only(host):
    secrets = host.file(f"{ROOT}/shared/secrets/kimi-vllm.env")
    assert secrets.user == "root" and secrets.mode == 0o600


def test_models_lists_served_name_and_chat_answers(host):
    status, models = api(host, "/v1/models")
    assert status == 200 and [m["id"] for m in models["data"]] == [SERVED]
    status, chat = api(host, "/v1/chat/completions", {
        "model": SERVED, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 5})
    assert status == 200
    usage = chat["usage"]
    assert usage["completion_tokens"] == 5 and usage["total_tokens"] == usage["prompt_tokens"] + 5
    assert chat["choices"][0]["finish_reason"] == "length"


def test_requests_without_the_key_are_refused(host):
    status, _unused = api(host, "/v1/models", key="")
    assert status == 401


def test_unit_sandbox_exposure(host):
    """systemd's own score of the unit's sandbox stays at 'OK' (below 2.0 of 10)."""
    line = host.check_output(f"systemd-analyze security {UNIT} --no-pager | tail -1")
    score = float(line.split("exposure level for")[1].split(":")[1].split()[0])
    assert score < 2.0, line


def test_the_api_key_appears_nowhere_but_the_secrets_file(host):
    hits = host.run(f"grep -rl 'molecule-test-key' {ROOT}/releases {ROOT}/shared/models /etc/systemd/system "
                    f"{ROOT}/shared/cache 2>/dev/null").stdout.split()
    assert hits == [], hits
    assert "molecule-test-key" in host.file(f"{ROOT}/shared/secrets/kimi-vllm.env").content_string
