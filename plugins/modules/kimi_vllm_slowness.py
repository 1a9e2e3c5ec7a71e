#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_vllm_slowness
short_description: Say whether slow serving is the machine or build, or the concurrency and memory settings
description:
  - From the controller's ledger rows (one per benchmarked attempt, with its concurrency and TTFT / ITL
    percentiles) and optionally a C(/metrics) page, answers one of C(machine_or_build) (one request alone is
    slower than the same hosts' earlier accepted rows), C(concurrency_or_memory) (fine alone, latency or
    errors collapse under load, KV cache near full, preemptions or waiting requests), C(not_slow) or
    C(unknown), with the next single variable to change.
  - Pure computation (C(module_utils/kimi_deploy/core/slowness.py)); read-only, runs in check mode.
version_added: "0.5.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  ledger_rows:
    description: Rows of the controller's C(ledger.jsonl).
    type: list
    elements: dict
    required: true
  host_group:
    description: Compare only rows of this inventory group (the same GPUs).
    type: str
  metrics_text:
    description: A C(/metrics) page of the server under load.
    type: str
    default: ""
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Is it the machine or the settings?
  kimi_vllm_slowness:
    ledger_rows: >-
      {{ lookup('ansible.builtin.file', kimi_ledger_dir ~ '/ledger.jsonl', errors='ignore')
         | default('', true) | split('\n') | select | map('from_json') | list }}
    host_group: gpu_nodes
  delegate_to: localhost
  register: kimi_slowness
"""

RETURN = r"""
verdict:
  description: C(machine_or_build), C(concurrency_or_memory), C(not_slow) or C(unknown).
  returned: always
  type: str
  sample: concurrency_or_memory
cause:
  description: Why, in a sentence.
  returned: always
  type: str
next_variable:
  description: The one setting to change next (C(name), C(from), C(to)); null when nothing should change.
  returned: always
  type: dict
  sample: {"name": "max_num_seqs", "from": 64, "to": 32}
next_step:
  description: What to do, as a sentence.
  returned: always
  type: str
evidence:
  description: The figures that decided it.
  returned: always
  type: list
  elements: str
line:
  description: The answer as one line to print.
  returned: always
  type: str
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.slowness import (
    metrics_from_text,
    slowness,
    summary_line,
)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            ledger_rows=dict(type="list", elements="dict", required=True),
            host_group=dict(type="str"),
            metrics_text=dict(type="str", default=""),
        ),
        supports_check_mode=True,
    )
    p = module.params
    answer = slowness(p["ledger_rows"], host_group=p["host_group"], metrics=metrics_from_text(p["metrics_text"]))
    module.exit_json(changed=False, line=summary_line(answer), **answer)


if __name__ == "__main__":
    main()
