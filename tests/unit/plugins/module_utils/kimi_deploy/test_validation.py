"""Input at the boundary: one rule per test, each message names the variable and the value given.

Before validation.py, preflight had one assert whose single fail_msg listed every rule, and several
of these values were not refused at all (a newline in the served name, /tmp as kimi_root, root as
the service user, kimi_release_keep 0, gpu_memory_utilization 1.7, a token in kimi_plan_extra_env).
"""

from __future__ import annotations

import json
import re

import kimi_inputs_check
import kimi_vllm_plan
import pytest
import yaml
from kimi_deploy.core import validation
from kimi_deploy.core.validation import check
from module_harness import run_module
from repo_paths import REPO

GOOD = {
    "inventory_hostname": "h1",
    "gpu_nodes": ["h1"],
    "kimi_api_key_set": True,
    "kimi_require_api_key": True,
    "kimi_model_repo": "moonshotai/Kimi-K3",
    "kimi_model_revision": "9f62e4e9fffbd0a83ddd60e1c209d828994b3569",
    "kimi_require_pinned_revision": True,
    "kimi_served_model_name": "kimi-k3",
    "kimi_root": "/opt/kimi",
    "kimi_max_input_tokens": 32768,
    "kimi_max_output_tokens": 4096,
    "kimi_concurrency": 8,
    "kimi_port": 8000,
    "kimi_service_name": "kimi-vllm",
    "kimi_service_user": "kimi-vllm",
    "kimi_release_keep": 3,
    "kimi_canary_enabled": True,
    "kimi_canary_min_requests": 50,
    "kimi_canary_duration_s": 600,
    "kimi_canary_max_duration_s": 1800,
    "kimi_plan_overrides": {"gpu_memory_utilization": 0.9, "enforce_eager": True, "cudagraph_reserve_bytes": 0},
    "kimi_plan_extra_args": ["--tool-call-parser", "kimi_k2", "--enable-auto-tool-choice"],
    "kimi_plan_extra_env": {"VLLM_LOGGING_LEVEL": "INFO"},
    "kimi_multinode_env": {"NCCL_CUMEM_ENABLE": "1"},
    "kimi_multinode_node_env": {"NCCL_IB_HCA": "mlx5_0"},
    "kimi_vllm_pip_extra_args": "--index-url https://pypi.example.internal/simple",
}


def refused(**changes):
    return check({**GOOD, **changes})


def test_good_settings_pass_every_rule():
    assert check(GOOD) == []
    assert check(GOOD, "plan") == []


def test_each_message_names_the_variable_and_the_value():
    assert refused(kimi_concurrency=0) == ["kimi_concurrency=0: must be ≥ 1"]


def test_only_the_rules_that_failed_are_listed_each_with_its_own_message():
    problems = refused(kimi_concurrency=0, kimi_port=70000, kimi_root="/tmp")
    assert len(problems) == 3
    assert [p.split("=", 1)[0] for p in problems] == ["kimi_root", "kimi_concurrency", "kimi_port"]


@pytest.mark.parametrize(("name", "value", "expected"), [
    ("kimi_max_input_tokens", 0, "kimi_max_input_tokens=0: must be ≥ 1"),
    ("kimi_max_output_tokens", -1, "kimi_max_output_tokens=-1: must be ≥ 1"),
    ("kimi_concurrency", "0", "kimi_concurrency=0: must be ≥ 1"),  # -e passes strings, shown as typed
    ("kimi_concurrency", "many", 'kimi_concurrency="many": must be a whole number ≥ 1'),
])
def test_rule_counts_are_at_least_one(name, value, expected):
    assert refused(**{name: value}) == [expected]


@pytest.mark.parametrize("port", [0, 70000, "http"])
def test_rule_port_is_a_port(port):
    assert refused(kimi_port=port) == [f"kimi_port={validation.show(port)}: must be a port, 1 to 65535"]


def test_rule_api_key_is_required_unless_switched_off():
    assert refused(kimi_api_key_set=False) == [
        'kimi_api_key="": the API key must be set (from Ansible Vault), or kimi_require_api_key set to false']
    assert refused(kimi_api_key_set=False, kimi_require_api_key="false") == []
    assert check({**GOOD, "kimi_api_key_set": False}, "plan") == []  # planning needs no key


@pytest.mark.parametrize("repo", ["", "Kimi-K3", "moonshotai/Kimi K3", "a/b/c", "org/..", "org/name\nx"])
def test_rule_model_repo_is_a_hub_repo_id(repo):
    [message] = refused(kimi_model_repo=repo)
    assert message.startswith(f"kimi_model_repo={json.dumps(repo)}: must ")


def test_rule_model_revision_is_pinned_unless_switched_off():
    [message] = refused(kimi_model_revision="main")
    assert message.startswith('kimi_model_revision="main": must be a 40-hex commit sha')
    assert "pin the 40-hex commit sha you validated" in message
    assert refused(kimi_model_revision="main", kimi_require_pinned_revision=False) == []
    assert check({**GOOD, "kimi_model_revision": "main"}, "plan") == []
    assert refused(kimi_model_revision="") == [
        'kimi_model_revision="": must name the revision to deploy (a 40-hex commit sha)']


@pytest.mark.parametrize("name", ["kimi\nExecStartPre=/bin/sh -c id", "kimi k3", "kimi;rm", "ki$mi", "x" * 257])
def test_rule_served_model_name_alphabet(name):
    [message] = refused(kimi_served_model_name=name)
    assert message.startswith(f"kimi_served_model_name={json.dumps(name)}: must be 1 to 256 of the characters")
    assert "\n" not in message  # the newline is shown escaped, not injected into the message


def test_rule_served_model_name_accepts_the_documented_alphabet():
    assert refused(kimi_served_model_name="org/Model-1.5:fp8_x") == []
    assert refused(kimi_served_model_name="") == []  # the repo id is served


@pytest.mark.parametrize("root", ["opt/kimi", "/opt/kimi/", "/opt/../etc", "/opt/./kimi", "/opt/ki mi", "/opt//kimi",
                                  "/opt/kimi\n"])
def test_rule_root_is_an_absolute_plain_path(root):
    [message] = refused(kimi_root=root)
    assert message.startswith(f"kimi_root={json.dumps(root)}: must be an absolute plain path")


@pytest.mark.parametrize("root", ["/", "/tmp", "/var/tmp", "/opt", "/usr/local", "/var/lib", "/home", "/etc"])
def test_rule_root_is_not_a_system_directory(root):
    [message] = refused(kimi_root=root)
    assert message.startswith(f"kimi_root={json.dumps(root)}: must not be a system directory")


@pytest.mark.parametrize("root", ["/tmp/kimi", "/run/kimi", "/home/ops/kimi", "/root/kimi", "/proc/x", "/usr/kimi"])
def test_rule_root_is_not_in_a_volatile_or_hidden_tree(root):
    [message] = refused(kimi_root=root)
    assert message.startswith(f"kimi_root={json.dumps(root)}: must not be under /")


@pytest.mark.parametrize("root", ["/opt/kimi", "/srv/kimi", "/var/lib/kimi", "/data/models/kimi_1.2"])
def test_rule_root_accepts_plain_directories_of_their_own(root):
    assert refused(kimi_root=root) == []


@pytest.mark.parametrize("name", ["kimi vllm", "kimi\nvllm", "-kimi", "kimi.service", "kimi@1", ""])
def test_rule_service_name_is_an_identifier(name):
    [message] = refused(kimi_service_name=name)
    assert message.startswith(f"kimi_service_name={json.dumps(name)}: must be an identifier")


@pytest.mark.parametrize("user", ["root", "0", 0])
def test_rule_service_user_is_not_root(user):
    [message] = refused(kimi_service_user=user)
    assert message == f"kimi_service_user={validation.show(user)}: must not be root: vLLM serves the network and " \
                      "runs unprivileged"


@pytest.mark.parametrize("user", ["Kimi", "kimi vllm", "kimi\n"])
def test_rule_service_user_is_a_user_name(user):
    [message] = refused(kimi_service_user=user)
    assert message.startswith(f"kimi_service_user={json.dumps(user)}: must be a user name")


@pytest.mark.parametrize("keep", [0, -1, "0"])
def test_rule_release_keep_is_at_least_one(keep):
    [message] = refused(kimi_release_keep=keep)
    assert message.startswith(f"kimi_release_keep={validation.show(keep)}: must be ≥ 1")


@pytest.mark.parametrize("count", [0, 13, 19, "many"])
def test_rule_canary_min_requests_is_enough_for_a_p95(count):
    [message] = refused(kimi_canary_min_requests=count)
    assert message.startswith(f"kimi_canary_min_requests={validation.show(count)}: must be")
    assert "≥ 20" in message
    assert refused(kimi_canary_min_requests=count, kimi_canary_enabled=False) == []  # no canary, nothing to judge
    assert refused(kimi_canary_min_requests=20) == []


@pytest.mark.parametrize("longest", [599, 0, "x"])
def test_rule_canary_max_duration_is_at_least_the_window(longest):
    [message] = refused(kimi_canary_max_duration_s=longest)
    assert message.startswith(f"kimi_canary_max_duration_s={validation.show(longest)}: must be")
    assert "600" in message
    assert refused(kimi_canary_max_duration_s=longest, kimi_canary_enabled=False) == []
    assert refused(kimi_canary_max_duration_s=600) == []  # never extended
    assert refused(kimi_canary_duration_s=0)[0].startswith("kimi_canary_duration_s=0: must be")


@pytest.mark.parametrize(("value", "ok"), [(1.7, False), (0, False), (-0.5, False), ("x", False), (1, True),
                                           (0.92, True), ("0.9", True)])
def test_rule_override_gpu_memory_utilization_in_zero_one(value, ok):
    problems = refused(kimi_plan_overrides={"gpu_memory_utilization": value})
    if ok:
        assert problems == []
    else:
        assert problems == [f"kimi_plan_overrides.gpu_memory_utilization={validation.show(value)}: "
                            "must be a fraction in (0, 1], e.g. 0.9"]


@pytest.mark.parametrize("key", sorted(validation.OVERRIDE_COUNTS))
def test_rule_override_counts_are_at_least_one(key):
    assert refused(kimi_plan_overrides={key: 0}) == [f"kimi_plan_overrides.{key}=0: must be ≥ 1"]
    assert refused(kimi_plan_overrides={key: 2}) == []


@pytest.mark.parametrize("key", sorted(validation.OVERRIDE_BYTES))
def test_rule_override_reserves_are_not_negative(key):
    assert refused(kimi_plan_overrides={key: -1}) == [f"kimi_plan_overrides.{key}=-1: must be ≥ 0 (bytes)"]
    assert refused(kimi_plan_overrides={key: 0}) == []


def test_rule_override_layer_partition_and_unknown_keys():
    assert refused(kimi_plan_overrides={"pp_layer_partition": [30, 0]}) == [
        "kimi_plan_overrides.pp_layer_partition=[30, 0]: must be a list of layer counts, each ≥ 1"]
    [message] = refused(kimi_plan_overrides={"gpu_mem_util": 0.9})
    assert message.startswith("kimi_plan_overrides.gpu_mem_util=0.9: must be a planner option")


def test_override_table_matches_the_planner_module_options():
    """Every override key is a kimi_vllm_plan option (so the table cannot drift from the module)."""
    source = (REPO / "plugins/modules/kimi_vllm_plan.py").read_text()
    options = set(yaml.safe_load(kimi_vllm_plan.DOCUMENTATION)["options"])
    assert options >= validation.OVERRIDE_KEYS, validation.OVERRIDE_KEYS - options
    for key in validation.OVERRIDE_COUNTS | validation.OVERRIDE_BYTES:
        assert re.search(rf"\b{key}=dict\(type=\"int\"", source), key
    assert 'gpu_memory_utilization=dict(type="float")' in source


@pytest.mark.parametrize("var", ["kimi_plan_extra_env", "kimi_multinode_env", "kimi_multinode_node_env"])
@pytest.mark.parametrize("name", ["1ABC", "A-B", "A B", "A\nB", ""])
def test_rule_env_names_are_identifiers(var, name):
    [message] = refused(**{var: {name: "on"}})
    assert message.startswith(f"{var}.{name}=\"on\": the name must be an identifier")


def test_rule_env_values_are_one_line():
    [message] = refused(kimi_plan_extra_env={"A": "1\nB=2"})
    assert message == 'kimi_plan_extra_env.A="1\\nB=2": the value must be one line without control characters'


@pytest.mark.parametrize("name", ["HF_TOKEN", "VLLM_API_KEY", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "hf_token"])
def test_rule_credential_env_names_refused_in_release_files(name):
    [message] = refused(kimi_plan_extra_env={name: "s3cr3t-value"})
    assert message.startswith(f"kimi_plan_extra_env.{name}=***: must not carry a credential")
    assert "s3cr3t-value" not in message
    # node.env is not part of a release: only the identifier rule applies there
    assert refused(kimi_multinode_node_env={name: "x"}) == []


def test_rule_env_values_with_url_credentials_refused_and_masked():
    [message] = refused(kimi_plan_extra_env={"HTTPS_PROXY": "http://bob:hunter2@proxy:3128"})
    assert message.startswith('kimi_plan_extra_env.HTTPS_PROXY="http://***@proxy:3128": must not carry URL')
    assert "hunter2" not in message


@pytest.mark.parametrize(("args", "shown"), [
    (["--api-key", "sk-1"], '"--api-key"'),
    (["--api-key=sk-1"], '"--api-key=***"'),
    (["--hf-token", "hf_x"], '"--hf-token"'),
    (["--model-loader-extra-config", "{\"url\": \"s3://AKIA:secret@bucket\"}"], None),
])
def test_rule_credential_flags_refused_in_extra_args(args, shown):
    [message] = refused(kimi_plan_extra_args=args)
    assert "must not carry" in message
    assert "sk-1" not in message and "hf_x" not in message and "secret@" not in message
    if shown:
        assert message.startswith(f"kimi_plan_extra_args[0]={shown}: must not carry a credential")


def test_rule_pip_extra_args_refuse_url_credentials_without_echoing_them():
    [message] = refused(kimi_vllm_pip_extra_args="--index-url https://deploy:glpat-XYZ@pypi.example.internal/simple")
    assert message.startswith('kimi_vllm_pip_extra_args="--index-url https://***@pypi.example.internal/simple": '
                              "must not carry credentials")
    assert "glpat-XYZ" not in message and "kimi_vllm_pip_index_url" in message


def test_rule_host_in_gpu_nodes():
    assert refused(gpu_nodes=["other"]) == [
        'inventory_hostname="h1": must be in the inventory group gpu_nodes (the plays and the planner work on '
        "gpu_nodes only)"]


def test_absent_variables_skip_their_rule():
    assert check({}) == []
    assert check({"kimi_concurrency": 0}) == ["kimi_concurrency=0: must be ≥ 1"]


# ------------------------------------------------------------------------------------------ module

@pytest.mark.parametrize("check_mode", [False, True])
def test_module_passes_good_settings_and_changes_nothing(check_mode):
    result = run_module(kimi_inputs_check, {"settings": GOOD}, check_mode=check_mode)
    assert result.get("failed") is not True and result["changed"] is False and result["problems"] == []


def test_module_fails_once_listing_only_the_failed_rules():
    result = run_module(kimi_inputs_check, {"settings": {**GOOD, "kimi_concurrency": 0, "kimi_service_user": "root"}})
    assert result["failed"] is True
    assert result["problems"] == ["kimi_concurrency=0: must be ≥ 1",
                                  'kimi_service_user="root": must not be root: vLLM serves the network and runs '
                                  "unprivileged"]
    assert result["msg"] == "Refused settings:\n" + "\n".join(result["problems"])


def test_module_plan_purpose_skips_deploy_only_rules():
    settings = {**GOOD, "kimi_api_key_set": False, "kimi_model_revision": "main"}
    assert run_module(kimi_inputs_check, {"settings": settings, "purpose": "plan"})["problems"] == []
    assert len(run_module(kimi_inputs_check, {"settings": settings})["problems"]) == 2


# ------------------------------------------------------------------------------------------- wiring

def test_preflight_and_plan_run_the_same_check():
    validate = yaml.safe_load((REPO / "roles/kimi_preflight/tasks/validate.yml").read_text())
    assert [t for t in validate if "kimi.deploy.kimi_inputs_check" in t]
    preflight = yaml.safe_load((REPO / "roles/kimi_preflight/tasks/main.yml").read_text())
    assert any(t.get("ansible.builtin.import_tasks") == "validate.yml" for t in preflight)
    plan = yaml.safe_load((REPO / "playbooks/plan.yml").read_text())
    tasks = plan[0]["tasks"]
    first = tasks[0]["ansible.builtin.import_role"]
    assert first == {"name": "kimi.deploy.kimi_preflight", "tasks_from": "validate.yml"}
    assert tasks[0]["vars"]["kimi_preflight_validate_purpose"] == "plan"


def test_validate_task_passes_every_variable_a_rule_reads():
    validate = yaml.safe_load((REPO / "roles/kimi_preflight/tasks/validate.yml").read_text())
    settings = validate[0]["kimi.deploy.kimi_inputs_check"]["settings"]
    assert set(settings) == set(GOOD)
    assert "kimi_api_key" not in settings  # only whether it is set: the key never reaches the module
