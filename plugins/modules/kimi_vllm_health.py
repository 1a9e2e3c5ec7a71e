#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_vllm_health
short_description: Wait until vLLM is healthy, serves the expected name and answers a chat completion
description:
  - Polls C(/health) until it answers 200, then checks that C(/v1/models) lists O(served_model_name)
    and, with O(smoke=true), that one short chat completion answers with consistent token counts.
  - While waiting it watches the systemd O(unit); if the unit fails or systemd restarts it, the
    module fails at once instead of waiting out O(timeout_s). The journal tail is returned for diagnosis.
  - Read-only. Runs in check mode too (the probes change nothing).
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  url:
    description:
      - Base URL of the server as seen from where the module runs. Ignored when O(port) is set.
    type: str
    default: http://127.0.0.1:8000
  port:
    description:
      - Port the server listens on. With it, the URL is derived from O(bind_host), loopback for a
        wildcard, the interface address itself otherwise (a host name is refused).
    type: int
  bind_host:
    description: Address the server binds (its C(--host)), used with O(port).
    type: str
    default: 0.0.0.0
  served_model_name:
    description: Name that must appear in C(/v1/models).
    type: str
    required: true
  api_key:
    description: API key sent as a Bearer token.
    type: str
    default: ""
  unit:
    description: systemd unit to watch while waiting (for example C(kimi-vllm.service)). Empty skips the watch.
    type: str
    default: ""
  timeout_s:
    description: Longest wait for C(/health).
    type: float
    default: 3600
  interval_s:
    description: Seconds between polls.
    type: float
    default: 3
  smoke:
    description: Send one chat completion and check its structure.
    type: bool
    default: true
  smoke_max_tokens:
    description: C(max_tokens) of the smoke request.
    type: int
    default: 8
  previous_invocation:
    description:
      - The unit's C(InvocationID) before a restart queued without blocking. The gate first waits
        (up to 120 s) for systemd to start a new run, so the state of the run being replaced (often
        a failed release) is not judged.
    type: str
    default: ""
  journal_lines:
    description: Journal lines returned when the gate fails (the diagnosis reads the whole journal).
    type: int
    default: 40
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.DEPLOY_LOCK
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Wait for the new release to serve
  kimi_vllm_health:
    bind_host: "{{ kimi_bind_host }}"
    port: "{{ kimi_port }}"
    served_model_name: moonshotai/Kimi-K3
    api_key: "{{ kimi_api_key }}"
    unit: kimi-vllm.service
    timeout_s: 3600
  no_log: false
"""

RETURN = r"""
deploy_lock:
  description: The heartbeats written to the deploy lock while the task ran, and whether it was lost.
  returned: when O(deploy_lock) is given
  type: dict
  sample: {"path": "/run/kimi-deploy/deploy.lock", "beats": 41, "lost": null, "error": null}
url:
  description: Base URL the gate probed.
  returned: always
  type: str
  sample: http://10.0.0.5:8000
waited_s:
  description: Seconds until C(/health) answered 200 (the start-up time when called right after a restart).
  returned: success
  type: float
models:
  description: Ids listed by C(/v1/models).
  returned: success
  type: list
  elements: str
smoke:
  description: Finish reason, token counts and latency of the smoke completion.
  returned: success and O(smoke=true)
  type: dict
main_pid:
  description: MainPID of the unit after the gate (0 when no unit is watched).
  returned: always
  type: int
journal:
  description: Last journal lines of the unit, when the gate failed.
  returned: failure with O(unit)
  type: str
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.deploy_lock import (
    LOCK_OPTION,
    keep_alive,
    lock_report,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.health import (
    UNIT_PROPERTIES,
    UnitState,
    check_models,
    check_smoke,
    http_request,
    probe_url,
    smoke_payload,
    wait_for_new_invocation,
    wait_healthy,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.systemd_unit import show_unit


def main():
    module = AnsibleModule(
        argument_spec=dict(
            url=dict(type="str", default="http://127.0.0.1:8000"),
            port=dict(type="int"),
            bind_host=dict(type="str", default="0.0.0.0"),
            served_model_name=dict(type="str", required=True),
            api_key=dict(type="str", default="", no_log=True),
            unit=dict(type="str", default=""),
            timeout_s=dict(type="float", default=3600),
            interval_s=dict(type="float", default=3),
            smoke=dict(type="bool", default=True),
            smoke_max_tokens=dict(type="int", no_log=False, default=8),
            previous_invocation=dict(type="str", default=""),
            journal_lines=dict(type="int", default=40),
            deploy_lock=LOCK_OPTION,
        ),
        supports_check_mode=True,
    )
    p = module.params
    try:
        base = probe_url(p["bind_host"], p["port"]) if p["port"] else p["url"].rstrip("/")
    except KimiDeployError as err:
        module.fail_json(msg=str(err), main_pid=0)
    unit = p["unit"]

    def unit_state():
        return UnitState.from_properties(show_unit(module.run_command, unit, UNIT_PROPERTIES))

    def journal():
        rc, out, _unused = module.run_command(
            ["journalctl", "-u", unit, "-o", "cat", "--no-pager", "-n", str(p["journal_lines"])]
        )
        return out if rc == 0 else ""

    result = {"changed": False, "main_pid": 0, "url": base}
    keeper = None
    try:
        with keep_alive(p["deploy_lock"]) as keeper:
            initial = None
            if unit and p["previous_invocation"]:
                initial = wait_for_new_invocation(unit_state, p["previous_invocation"], timeout_s=120,
                                                  interval_s=min(p["interval_s"], 1.0))
            result["waited_s"] = round(
                wait_healthy(base, timeout_s=p["timeout_s"], interval_s=p["interval_s"],
                             unit_state=unit_state if unit else None, initial=initial), 1)
            result["models"] = check_models(http_request(base + "/v1/models", api_key=p["api_key"]),
                                            p["served_model_name"])
            if p["smoke"]:
                answer = http_request(base + "/v1/chat/completions", method="POST", api_key=p["api_key"],
                                      payload=smoke_payload(p["served_model_name"], p["smoke_max_tokens"]),
                                      timeout=300)
                result["smoke"] = check_smoke(answer, p["smoke_max_tokens"])
            if unit:
                result["main_pid"] = unit_state().main_pid
    except KimiDeployError as err:
        _warn(module, lock_report(keeper, result))
        if unit:
            result["journal"] = journal()
        module.fail_json(msg=str(err), **result)
    _warn(module, lock_report(keeper, result))
    module.exit_json(**result)


def _warn(module, warning):
    if warning:
        module.warn(warning)


if __name__ == "__main__":
    main()
