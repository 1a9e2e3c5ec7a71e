#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Ansible module: run the acceptance suite against a vLLM server and fail the task when it rejects."""

from __future__ import annotations

DOCUMENTATION = r"""
---
module: kimi_vllm_acceptance
short_description: Prove a vLLM release with real requests before it takes traffic
description:
  - Runs the kimi-deploy acceptance suite against the OpenAI-compatible API of a running vLLM server, with
    httpx's async client, and fails the task when any check fails, naming the checks and showing the first
    failure's request and response.
  - "Checks, in order: C(health); C(models) (the served name with the planned O(max_model_len));
    C(api_key_missing) and C(api_key_wrong) (401 without or with a wrong key); C(short_chat),
    C(short_chat_stream), C(short_completion), C(short_completion_stream) (200, usage counts, C([DONE]),
    TTFT); the long-input group C(long_input_text), C(long_input_token_ids), C(long_input_chat) (a prompt of
    exactly O(max_model_len) - O(max_output_tokens) tokens, counted by the server's C(/tokenize), answered 200
    with matching C(usage.prompt_tokens)) and C(over_limit_text), C(over_limit_token_ids), C(over_limit_chat)
    (exactly O(max_model_len) + 1 tokens, answered 400 naming the context length, C(/health) still 200); the
    C(abnormal_*) inputs (empty messages, empty prompt, invalid JSON, missing fields, negative and huge
    C(max_tokens), unknown model 404, control characters, mixed scripts, emoji, a very long line, a prompt over
    the character pre-check, and more), each with its documented status and C(/health) checked after every
    one; the form checks C(image_input), C(image_over_limit), C(image_corrupt), C(image_url_refused) (an image
    URL on a host outside C(--allowed-media-domains) refused before any fetch), C(image_long_input) (one image
    and a text reaching the long-input target together), C(tools_call), C(tools_bad_schema),
    C(reasoning_split), C(structured_output) (see O(plan) and O(input_forms));
    C(routes_unauthenticated) through the front door (see O(entry_url)); and
    C(concurrency), O(concurrency) streams for O(duration_s)."
  - The concurrency check reports request rate, output tokens/s, TTFT, inter-token latency and latency
    percentiles (p50/p95/p99), and samples memory during the run (C(vllm:kv_cache_usage_perc) and
    C(process_resident_memory_bytes) from C(/metrics), the vLLM process tree's RSS with O(server_pid), GPU
    memory through NVML when C(pynvml) or vLLM's vendored copy is importable). It fails on any request
    error, on steady memory growth (least-squares slope after a warm-up, limits documented in
    C(plugins/module_utils/kimi_deploy/core/acceptance.py); KV-cache usage by the blocks still held once no
    request runs, idle after the run against idle before it) and on latency rising steadily across the run
    (median TTFT or time per output token in four windows after the warm-up).
  - Sends real requests but changes nothing, so it never reports C(changed).
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
requirements:
  - httpx (0.23 or later) for the Python that runs the module. vLLM depends on it, so run the task with
    C(ansible_python_interpreter) set to the release venv's python.
options:
  base_url:
    description: Where the server listens, scheme, host and port, without C(/v1).
    type: str
    default: http://127.0.0.1:8000
  served_model_name:
    description: The name clients send as C(model) (the unit's C(--served-model-name)).
    type: str
    required: true
  api_key:
    description:
      - The API key the server was started with (C(--api-key)). Never logged, never written to the results.
    type: str
    default: ""
  expect_api_key:
    description:
      - The deploy sets an API key, so requests without it or with a wrong one must get 401.
      - Set to V(false) only for a server started without C(--api-key); the two C(api_key_*) checks are then skipped.
    type: bool
    default: true
  max_model_len:
    description: The plan's C(max_model_len); the suite fails when the server runs another one.
    type: int
    required: true
  max_output_tokens:
    description:
      - The longest completion the service promises; the long-input check sends
        O(max_model_len) - O(max_output_tokens) prompt tokens and asks for this many.
    type: int
    required: true
  concurrency:
    description: Concurrent streams of the concurrency check; pass the plan's C(max_num_seqs).
    type: int
    required: true
  duration_s:
    description:
      - How long the concurrency check keeps the streams busy, in seconds.
      - Default by profile, 300 for V(full) and 20 for V(quick).
    type: float
  profile:
    description:
      - V(full) runs every check (production). V(quick) (CI, demo) skips C(short_chat),
        C(short_completion_stream), C(abnormal_missing_prompt), C(abnormal_wrong_type), C(abnormal_invalid_utf8)
        and the tokenizer-robustness inputs (C(abnormal_lone_surrogate), C(abnormal_control_characters),
        C(abnormal_mixed_scripts), C(abnormal_emoji), C(abnormal_very_long_line)) and runs the concurrency
        check for 20 s.
      - No profile skips the long-input group.
    type: str
    choices: [full, quick]
    default: full
  results_file:
    description:
      - Path on the host where the full results (every check, request and response of failures, all series)
        are written as JSON (mode 0640). Not written in check mode, where nothing runs.
    type: path
  fail_on_reject:
    description: Fail the task when a check fails. With V(false) the verdict is only returned in RV(passed).
    type: bool
    default: true
  server_pid:
    description:
      - PID of the vLLM API server (the unit's C(MainPID)); the RSS of it and all its children (engine core,
        workers) is sampled from C(/proc) during the concurrency run and judged for growth.
    type: int
  sample_interval_s:
    description: Seconds between memory samples during the concurrency run.
    type: float
    default: 2.0
  load_input_tokens:
    description: Prompt tokens of each concurrency request (fitted inside O(max_model_len)).
    type: int
    default: 512
  load_output_tokens:
    description: Generated tokens of each concurrency request (at most O(max_output_tokens)).
    type: int
    default: 128
  request_timeout_s:
    description: Timeout of one request, in seconds; long-input requests generate O(max_output_tokens) tokens.
    type: float
    default: 600.0
  warmup_fraction:
    description: Fraction of the concurrency run, from its start, left out of the memory and latency judgement.
    type: float
    default: 0.25
  max_memory_growth_per_min:
    description:
      - Allowed fitted RSS growth per minute, as a fraction of the series' mean. The GPU and KV-cache limits
        scale with it (defaults 0.005 and 0.05 per minute when this is 0.01).
    type: float
    default: 0.01
  max_latency_degradation:
    description:
      - Allowed ratio of the last window's median TTFT and time per output token to the first window's
        (plus 50 ms and 5 ms of slack), over four windows after the warm-up.
      - Only a steady rise fails the check; one that falls back in a later window (a burst of other load on the
        host) is reported in C(metrics.concurrency.latency_degradation.bursts) instead.
    type: float
    default: 1.5
  plan:
    description:
      - The plan the release serves (C(kimi_plan_result)). Its C(model_forms) (what the model accepts and emits,
        from its files) and C(serve_args) (parsers, C(--limit-mm-per-prompt), C(--language-model-only),
        C(--allowed-media-domains)) decide the form checks C(image_input), C(image_over_limit), C(image_corrupt),
        C(image_url_refused), C(image_long_input), C(tools_call), C(tools_bad_schema), C(reasoning_split) and
        C(structured_output).
      - Without it, or for a plan written before the planner recorded the forms, those checks are skipped, saying so.
    type: dict
  input_forms:
    description:
      - The input forms the users send (C(kimi_input_forms)); default the plan's C(declared_input_forms).
      - A declared form always runs its check, so a release that cannot serve it fails by name; a form served but
        not declared is checked and named in C(notes) and C(metrics.forms.extra); a form neither declared nor
        served, or one the model lacks, is skipped with the reason.
    type: list
    elements: str
    choices: [text, image, tools]
  entry_url:
    description:
      - The replica's front door (role kimi_frontdoor) as this host reaches it, e.g. C(https://127.0.0.1:8443).
      - "Runs the check C(routes_unauthenticated) (group C(routes)): each route of O(entry_routes) is sent through
        the entry without a key and with a random wrong one; any 2xx fails the check naming the route, and
        C(/health) must answer 200 without a key. The table (route, method, both statuses) is in
        C(routes) in RV(metrics)."
      - Empty (no front door) skips that check, saying why.
    type: str
    default: ""
  entry_ca_file:
    description:
      - CA certificate (PEM file on the host) of the entry's certificate. Empty, it is not verified; the probes
        carry no key.
    type: path
    default: ""
  entry_routes:
    description:
      - The paths probed through the entry. Default every route vLLM 0.32's OpenAI server mounts (C(/invocations),
        C(/tokenize), C(/detokenize), C(/pooling), C(/classify), C(/score), C(/scale_elastic_ep), the C(/v1)
        routes, C(/metrics), C(/version), ...). Routes that change the engine are probed with a method they do
        not serve, so an open server answers 405 and never acts.
    type: list
    elements: str
  entry_metrics_networks:
    description:
      - Networks (CIDR) the entry serves C(/metrics) to without a key (C(kimi_frontdoor_scrape_networks)); a 2xx
        on C(/metrics) passes only when this host's address towards the entry is in one of them.
    type: list
    elements: str
    default: []
attributes:
  platform:
    platforms: posix
  check_mode:
    support: full
    description: In check mode no request is sent; the task is reported skipped.
  diff_mode:
    support: none
notes:
  - Expected answers are those of vLLM 0.32 (read from its source and measured on the CPU build). Both error
    shapes vLLM has used are read, the nested error object (C(error.message), C(error.type), C(error.code)) and
    the flat ones (top-level C(message), C(type), C(code), or FastAPI's C(detail)).
  - The suite needs C(/tokenize) (on by default in vLLM's OpenAI server) to count prompt tokens exactly.
seealso:
  - module: kimi.deploy.kimi_ledger
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.DEPLOY_LOCK
"""

EXAMPLES = r"""
- name: Accept the new release (production profile)
  kimi_vllm_acceptance:
    base_url: "http://127.0.0.1:{{ kimi_port }}"
    served_model_name: "{{ kimi_served_model_name }}"
    api_key: "{{ kimi_api_key }}"
    max_model_len: "{{ kimi_plan_result.max_model_len }}"
    max_output_tokens: "{{ kimi_max_output_tokens }}"
    concurrency: "{{ kimi_plan_result.max_num_seqs }}"
    profile: full
    results_file: "{{ kimi_root }}/releases/{{ kimi_release_id }}/acceptance.json"
    plan: "{{ kimi_plan_result }}"  # the model's forms and the served flags decide the form checks
    input_forms: [text, image, tools]  # what the users send: each must be served
  vars:
    ansible_python_interpreter: "{{ kimi_vllm_venv_path }}/bin/python"
  register: kimi_acceptance_result

- name: Quick profile in CI, keep going to record the verdict
  kimi_vllm_acceptance:
    served_model_name: tiny
    api_key: "{{ kimi_api_key }}"
    max_model_len: 512
    max_output_tokens: 16
    concurrency: 4
    profile: quick
    duration_s: 10
    fail_on_reject: false
  register: kimi_acceptance_result
"""

RETURN = r"""
deploy_lock:
  description: The heartbeats written to the deploy lock while the task ran, and whether it was lost.
  returned: when O(deploy_lock) is given
  type: dict
  sample: {"path": "/run/kimi-deploy/deploy.lock", "beats": 41, "lost": null, "error": null}
passed:
  description: Whether every check that ran passed.
  returned: when the suite ran
  type: bool
failed_checks:
  description: Names of the failed checks in run order.
  returned: when the suite ran
  type: list
  elements: str
  sample: [long_input_text, over_limit_text]
checks:
  description:
    - One entry per check, with C(status) (passed, failed, skipped), C(passed) (null when skipped), C(detail),
      C(group), C(expectation), C(duration_s), C(observed), and for failed checks C(request) (method, path,
      body cut at 2000 characters, the key never) and C(response) (status, body, elapsed_ms).
  returned: when the suite ran
  type: dict
  sample:
    over_limit_text:
      status: passed
      passed: true
      group: long_input
      detail: "400 (nested envelope, param input_tokens), /health 200 after"
      duration_s: 0.03
metrics:
  description:
    - C(short) (latency, TTFT per short check), C(long) (usage and latency of the long-input requests),
      C(abnormal) (status per abnormal input), C(forms) (C(declared), C(served), C(missing), C(extra),
      C(latency_ms) per form check, the plan's C(multimodal) budget), C(routes) (the front door's probe table,
      C(route), C(method), C(no_auth) and C(wrong_auth) statuses), and C(concurrency) with C(request_rate),
      C(output_tokens_per_s),
      C(ttft_ms), C(itl_ms), C(tpot_ms), C(latency_ms) (count, mean, min, p50, p95, p99, max), C(memory_growth)
      and C(latency_degradation) verdicts, C(series) (throughput per second, memory samples) and C(samples)
      (at most 2000 values each, for plots).
  returned: when the suite ran
  type: dict
server:
  description: What the server said about itself, C(vllm_version), C(max_model_len), C(kv_cache_size_tokens),
    C(cache_config) (labels of C(vllm:cache_config_info)).
  returned: when the suite ran
  type: dict
suite_duration_s:
  description: Wall time of the whole suite in seconds.
  returned: when the suite ran
  type: float
results_file:
  description: Where the full results were written.
  returned: when O(results_file) is set and the suite ran
  type: str
skipped:
  description: True in check mode, where no request is sent.
  returned: in check mode
  type: bool
msg:
  description: The verdict, naming failed checks and showing the first failure's request and response.
  returned: always
  type: str
"""

from ansible.module_utils.basic import AnsibleModule, missing_required_lib
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.acceptance import AcceptanceConfig
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError

# Only the release venv has httpx (vLLM depends on it); the module says so with missing_required_lib.
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.acceptance_client import (
    HTTPX_IMPORT_ERROR,
    run_acceptance,
    write_results,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.deploy_lock import (
    LOCK_OPTION,
    keep_alive,
    lock_report,
)

CONFIG_OPTIONS = (
    "base_url", "served_model_name", "api_key", "expect_api_key", "max_model_len", "max_output_tokens",
    "concurrency", "duration_s", "profile", "server_pid", "sample_interval_s", "load_input_tokens",
    "load_output_tokens", "request_timeout_s", "warmup_fraction", "max_memory_growth_per_min",
    "max_latency_degradation", "plan", "input_forms", "entry_url", "entry_ca_file", "entry_routes",
    "entry_metrics_networks",
)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            base_url=dict(type="str", default="http://127.0.0.1:8000"),
            served_model_name=dict(type="str", required=True),
            api_key=dict(type="str", default="", no_log=True),
            expect_api_key=dict(type="bool", default=True),
            max_model_len=dict(type="int", required=True),
            max_output_tokens=dict(type="int", no_log=False, required=True),
            concurrency=dict(type="int", required=True),
            duration_s=dict(type="float"),
            profile=dict(type="str", choices=["full", "quick"], default="full"),
            results_file=dict(type="path"),
            fail_on_reject=dict(type="bool", default=True),
            server_pid=dict(type="int"),
            sample_interval_s=dict(type="float", default=2.0),
            load_input_tokens=dict(type="int", no_log=False, default=512),
            load_output_tokens=dict(type="int", no_log=False, default=128),
            request_timeout_s=dict(type="float", default=600.0),
            warmup_fraction=dict(type="float", default=0.25),
            max_memory_growth_per_min=dict(type="float", default=0.01),
            max_latency_degradation=dict(type="float", default=1.5),
            plan=dict(type="dict"),
            input_forms=dict(type="list", elements="str", choices=["text", "image", "tools"]),
            entry_url=dict(type="str", default=""),
            entry_ca_file=dict(type="path", default=""),
            entry_routes=dict(type="list", elements="str"),
            entry_metrics_networks=dict(type="list", elements="str", default=[]),
            deploy_lock=LOCK_OPTION,
        ),
        supports_check_mode=True,
    )
    params = module.params
    try:
        config = AcceptanceConfig(**{k: params[k] for k in CONFIG_OPTIONS})
        config.validate()
    except KimiDeployError as err:
        module.fail_json(msg=str(err))
    if module.check_mode:
        module.exit_json(changed=False, skipped=True,
                         msg="check mode: the acceptance suite sends real requests, so it did not run")
    if HTTPX_IMPORT_ERROR is not None:
        module.fail_json(msg=missing_required_lib("httpx") + " Run this task with ansible_python_interpreter set to "
                         "the release venv's python, which has httpx because vLLM depends on it.",
                         exception=HTTPX_IMPORT_ERROR)
    keeper = None
    try:
        with keep_alive(params["deploy_lock"]) as keeper:
            results = run_acceptance(config)
    except KimiDeployError as err:
        module.fail_json(msg=str(err), **({"deploy_lock": keeper.summary()} if keeper else {}))
    out = {k: results[k] for k in ("passed", "failed_checks", "checks", "metrics", "server", "suite_duration_s",
                                   "profile", "served_model_name", "started_at", "notes", "settings")}
    lost = lock_report(keeper, out)
    if lost:
        module.warn(lost)
    if params["results_file"]:
        try:
            write_results(params["results_file"], results)
        except OSError as err:
            module.fail_json(msg=f"could not write results_file {params['results_file']}: {err}; choose a writable "
                                 "path", **out)
        out["results_file"] = params["results_file"]
    if not results["passed"] and params["fail_on_reject"]:
        module.fail_json(msg=results["msg"], changed=False, **out)
    module.exit_json(changed=False, msg=results["msg"], **out)


if __name__ == "__main__":
    main()
