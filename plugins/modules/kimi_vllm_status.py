#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_vllm_status
short_description: Say what a vLLM host is doing now - serving, starting, restarting or failed - and why
description:
  - Reads the unit's systemd state (C(ActiveState), C(SubState), C(Result), C(NRestarts),
    C(ExecMainStartTimestamp)), the current release's C(release.json) (its C(activations) and the
    acceptance verdict) and the unit's journal since the release was last activated.
  - Returns the host's state, the restarts since the last deploy, the last failure with its phase, cause
    and next step (also when a later restart serves again), and on a healthy serving host the clients'
    4xx errors counted by status and route, leaving out the acceptance suite's own probe window recorded
    in C(release.json).
  - With O(ledger_rows) (the controller's C(ledger.jsonl) rows), also says whether slowness is the machine
    or build (one request is already slow against the same hosts' earlier rows) or the concurrency and
    memory settings (fine alone, collapses under load; O(metrics_text) adds the KV usage, waiting and
    preempted requests).
  - Read-only; runs in check mode. The decisions are in C(module_utils/kimi_deploy/core/host_status.py),
    C(diagnose.py) and C(slowness.py).
version_added: "0.5.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  root:
    description: Deploy root (holds C(current/release.json)).
    type: path
    required: true
  unit:
    description: The systemd unit of vLLM.
    type: str
    default: kimi-vllm.service
  lines:
    description: Most journal lines to read (since the last activation).
    type: int
    default: 5000
  ledger_rows:
    description: Rows of the controller's C(ledger.jsonl); empty leaves the speed question out.
    type: list
    elements: dict
    default: []
  host_group:
    description: Compare only ledger rows of this inventory group (the same GPUs).
    type: str
  metrics_text:
    description: The server's C(/metrics) page, if it was read; empty when the server does not answer.
    type: str
    default: ""
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Read the host's state and last failure
  kimi_vllm_status:
    root: /opt/kimi
    unit: kimi-vllm.service
  register: kimi_vllm_status_result

- name: Print it
  ansible.builtin.debug:
    msg: "{{ kimi_vllm_status_result.lines }}"
"""

RETURN = r"""
state:
  description: C(serving), C(starting), C(restarting), C(failed), C(stopped), C(stopping) or C(unknown), from systemd.
  returned: always
  type: str
  sample: restarting
restarts_since_deploy:
  description: Automatic restarts since the unit was started into the current release.
  returned: always
  type: int
  sample: 3
restarted_into_release:
  description: The main process started at or after the release's last activation (null when unknown).
  returned: always
  type: bool
release_id:
  description: The current release.
  returned: always
  type: str
deployed_at:
  description: The release's last activation (UTC).
  returned: always
  type: str
healthy:
  description: Serving, and the journal since the activation holds no failure (clients' 4xx aside).
  returned: always
  type: bool
client_errors:
  description: On a healthy host, clients' 4xx outside the acceptance probe window, by status, method and route.
  returned: always
  type: list
  elements: dict
  sample: [{"status": 400, "method": "POST", "route": "/v1/completions", "count": 2}]
last_failure:
  description: Phase, cause class, cause, next step and rule of the latest start that failed; null when none.
  returned: always
  type: dict
slow:
  description: With O(ledger_rows), the speed verdict (C(machine_or_build), C(concurrency_or_memory), C(not_slow),
    C(unknown)) with the next single variable to change; null without rows.
  returned: always
  type: dict
lines:
  description: The answer as lines to print.
  returned: always
  type: list
  elements: str
"""

import json
import os
import re

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.diagnose import diagnose, last_failure
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.host_status import (
    UNIT_PROPERTIES,
    acceptance_windows,
    host_status,
    parse_time,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.service_state import parse_properties
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.slowness import metrics_from_text, slowness

_JOURNAL_META = re.compile(r"^-- .* --$")


def main():
    module = AnsibleModule(
        argument_spec=dict(
            root=dict(type="path", required=True),
            unit=dict(type="str", default="kimi-vllm.service"),
            lines=dict(type="int", default=5000),
            ledger_rows=dict(type="list", elements="dict", default=[]),
            host_group=dict(type="str"),
            metrics_text=dict(type="str", default=""),
        ),
        supports_check_mode=True,
    )
    p = module.params
    argv = ["systemctl", "show", p["unit"], "--no-pager"] + [f"-p{name}" for name in UNIT_PROPERTIES]
    rc, out, err = module.run_command(argv)
    if rc != 0:
        module.fail_json(msg=f"systemctl show {p['unit']} failed (rc {rc}): {err.strip() or out.strip()}")
    unit = parse_properties(out)
    release = {}
    path = os.path.join(p["root"], "current", "release.json")
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as handle:
            release = json.load(handle)
    activations = [t for t in (parse_time(a) for a in release.get("activations") or []) if t]
    journal = ["journalctl", "-u", p["unit"], "-o", "short-iso", "--no-pager", "-n", str(p["lines"])]
    if activations:
        journal += ["--since", max(activations).strftime("%Y-%m-%d %H:%M:%S UTC")]
    rc, out, err = module.run_command(journal)
    if rc != 0:
        module.fail_json(msg=f"journalctl -u {p['unit']} failed (rc {rc}): {err.strip() or out.strip()}")
    text = "\n".join(line for line in out.splitlines() if not _JOURNAL_META.match(line))
    try:
        windows = acceptance_windows(release)
        diagnosis = diagnose(text, exclude_windows=windows)
        failure = last_failure(text, exclude_windows=windows)
    except KimiDeployError as error:
        module.fail_json(msg=str(error))
    slow = None
    if p["ledger_rows"]:
        slow = slowness(p["ledger_rows"], host_group=p["host_group"], metrics=metrics_from_text(p["metrics_text"]))
    answer = host_status(unit, release, diagnosis, failure, slow=slow)
    module.exit_json(changed=False, **answer)


if __name__ == "__main__":
    main()
