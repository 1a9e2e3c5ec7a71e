#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_vllm_diagnose
short_description: Diagnose a failed vLLM start or run from its journal or log
description:
  - Reads the log of a vLLM server (the systemd O(unit)'s journal, a O(log_file) on the host, or
    O(log_text) given directly) and classifies the failure by phase
    (C(load), C(startup), C(runtime), C(unknown)) with its cause, the evidence lines, the next step
    and, where the log gives the number, a concrete parameter change such as C(max_model_len).
  - The phase is that of the last milestone vLLM logged before the error (weights loaded, KV cache
    allocated, server listening), or of the step its traceback names. Warnings are returned as
    RV(risks) and become the cause only when a failure they explain follows. A serving engine whose
    only errors are clients' 4xx answers C(healthy=true) with phase C(none) and the client errors
    counted by status and route.
  - Wrapper lines such as C(Engine core initialization failed. See root cause above) are looked past
    to the first real error above them. When the journal holds several starts (systemd restarts),
    the latest failed start is diagnosed; errors logged after a requested shutdown are ignored.
  - Read-only; runs in check mode too.
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  log_text:
    description: Log text to diagnose, for example the C(journal) returned by M(kimi.deploy.kimi_vllm_health).
    type: str
  log_file:
    description: Path on the managed host of a log file the server wrote; its last O(lines) lines are read.
    type: path
  unit:
    description:
      - systemd unit whose journal is read with C(journalctl -u UNIT -o cat --no-pager -n LINES).
    type: str
  since:
    description: Only journal entries since this time (C(journalctl --since) syntax, for example C(-1h)).
    type: str
  lines:
    description: Journal lines to read with O(unit), or last lines of O(log_file).
    type: int
    default: 2000
  context:
    description:
      - Launch parameters the server was started with, so next steps are concrete
        (C(lower max_model_len from 32768 to 29184)). Known keys are C(max_model_len),
        C(gpu_memory_utilization), C(max_num_seqs), C(max_num_batched_tokens), C(tensor_parallel_size),
        C(pipeline_parallel_size), C(data_parallel_size), C(port), C(kv_cache_memory_bytes).
      - Values given here win over the ones read from vLLM's own C(non-default args) log line.
    type: dict
    default: {}
  exclude_windows:
    description:
      - Time windows whose client errors are not counted, for example the acceptance suite's probes
        (their window is in the release's C(release.json)). Each item has C(start) and C(end), ISO 8601
        times such as C(2026-11-30T07:08:00Z).
      - With O(unit) the journal is read with C(-o short-iso) so its lines carry their time.
    type: list
    elements: dict
    default: []
  root:
    description:
      - Deploy root on the managed host. The acceptance suite's probe window of every release under
        C(<root>/releases/) (recorded in its C(release.json)) is added to O(exclude_windows), so the
        suite's deliberate bad requests are not read as clients' errors.
      - A root without releases adds no window.
    type: path
notes:
  - Exactly one of O(log_text), O(log_file) and O(unit) is required.
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Diagnose the unit after a failed start
  kimi_vllm_diagnose:
    unit: kimi-vllm.service
    since: -30min
    context:
      max_model_len: "{{ kimi_vllm_max_model_len }}"
      gpu_memory_utilization: "{{ kimi_vllm_gpu_memory_utilization }}"
  register: kimi_diagnosis

- name: Show it
  ansible.builtin.debug:
    msg: "{{ kimi_diagnosis.phase }}: {{ kimi_diagnosis.cause }} Next: {{ kimi_diagnosis.next_step }}"

- name: Diagnose a serving host, its releases' acceptance probes left out of the client errors
  kimi_vllm_diagnose:
    unit: kimi-vllm.service
    root: /opt/kimi
    lines: 5000

- name: Diagnose the journal tail a failed health gate returned
  kimi_vllm_diagnose:
    log_text: "{{ kimi_health_result.journal }}"
"""

RETURN = r"""
phase:
  description: Where the server failed, C(load), C(startup), C(runtime) or C(unknown); C(none) when healthy.
  returned: always
  type: str
  sample: startup
cause:
  description: What went wrong, in one or two sentences.
  returned: always
  type: str
evidence:
  description: The log lines that decided the diagnosis.
  returned: always
  type: list
  elements: str
next_step:
  description: What to change, reversible parameters (context length, concurrency, memory utilisation) first.
  returned: always
  type: str
parameter_changes:
  description: Parameter changes the log itself justifies, for example vLLM's estimated maximum model length.
  returned: always
  type: dict
  sample: {"max_model_len": 29184}
rule:
  description: Stable id of the rule that matched (C(unclassified_error) when none did).
  returned: always
  type: str
  sample: kv_cache_too_small_for_max_model_len
first_error_line:
  description: The first error line of the failed start, wrappers excluded; null when none was logged.
  returned: always
  type: str
cause_class:
  description: The cause's class in the diagnosis taxonomy (C(gpu_oom), C(nccl_error), C(healthy), C(risk_only), ...).
  returned: always
  type: str
  sample: kv_cache_insufficient
healthy:
  description: True when the engine served and the only errors were clients' (4xx).
  returned: always
  type: bool
risks:
  description: Warnings that precede failures (C(rule), C(risk), C(line), C(next_step)); not causes on their own.
  returned: always
  type: list
  elements: dict
client_errors:
  description: >-
    Client (4xx) responses outside O(exclude_windows) and the probe windows of O(root)'s releases, counted
    by C(status), C(method) and C(route).
  returned: always
  type: list
  elements: dict
  sample: [{"status": 400, "method": "POST", "route": "/v1/chat/completions", "count": 3}]
log_lines_read:
  description: Number of log lines read.
  returned: always
  type: int
excluded_windows:
  description: The time windows whose client errors were left out (O(exclude_windows), then O(root)'s probe windows).
  returned: always
  type: list
  elements: dict
  sample: [{"start": "2026-11-30T07:04:00Z", "end": "2026-11-30T07:06:00Z"}]
"""

import os
import re
from collections import deque

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.diagnose import diagnose
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.host_status import probe_windows
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.releases import list_releases

# journalctl's own lines: "-- No entries --", "-- Boot 3f2c... --".
_JOURNAL_META = re.compile(r"^-- .* --$")


def read_journal(module, unit, lines, since, timestamps=False):
    argv = ["journalctl", "-u", unit, "-o", "short-iso" if timestamps else "cat", "--no-pager", "-n", str(lines)]
    if since:
        argv += ["--since", since]
    rc, out, err = module.run_command(argv)
    if rc != 0:
        module.fail_json(msg=f"journalctl -u {unit} failed (rc {rc}): {err.strip() or out.strip()}; "
                             "check the unit name and that the user may read the journal")
    return "\n".join(line for line in out.splitlines() if not _JOURNAL_META.match(line))


def read_log_file(module, path, lines):
    if not os.path.isfile(path):
        module.fail_json(msg=f"log_file {path} does not exist on the host: pass the file the server writes, "
                             "or use unit to read its journal")
    with open(path, encoding="utf-8", errors="replace") as handle:
        return "".join(deque(handle, maxlen=lines))


def main():
    module = AnsibleModule(
        argument_spec=dict(
            log_text=dict(type="str"),
            log_file=dict(type="path"),
            unit=dict(type="str"),
            since=dict(type="str"),
            lines=dict(type="int", default=2000),
            context=dict(type="dict", default={}),
            exclude_windows=dict(type="list", elements="dict", default=[]),
            root=dict(type="path"),
        ),
        mutually_exclusive=[("log_text", "log_file", "unit")],
        required_one_of=[("log_text", "log_file", "unit")],
        required_by={"since": "unit"},
        supports_check_mode=True,
    )
    p = module.params
    if p["lines"] < 1:
        module.fail_json(msg=f"lines must be at least 1, got {p['lines']}")
    windows = list(p["exclude_windows"])
    if p["root"]:
        windows += probe_windows(release.meta for release in list_releases(p["root"]))
    if p["unit"]:
        text = read_journal(module, p["unit"], p["lines"], p["since"], timestamps=bool(windows))
    elif p["log_file"]:
        text = read_log_file(module, p["log_file"], p["lines"])
    else:
        text = p["log_text"]
    try:
        result = diagnose(text, context=p["context"], exclude_windows=windows)
    except KimiDeployError as err:
        module.fail_json(msg=str(err))
    module.exit_json(changed=False, log_lines_read=len(text.splitlines()), excluded_windows=windows, **result)


if __name__ == "__main__":
    main()
