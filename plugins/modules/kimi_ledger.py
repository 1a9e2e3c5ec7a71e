#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Ansible module: append a deploy attempt's row to the controller's ledger and write its HTML report."""

from __future__ import annotations

DOCUMENTATION = r"""
---
module: kimi_ledger
short_description: Record a deploy attempt in the ledger (CSV and JSONL) and write its HTML report
description:
  - Builds one ledger row for a deploy attempt, accepted or not, appends it to C(ledger.csv) (for people,
    fixed column order, header written once) and C(ledger.jsonl) (for tools, the whole row) under
    O(ledger_dir), and writes a static HTML report with plots of the concurrency run, the verdict of every
    check (failed ones with their request and response) and a comparison with the previous release's row.
  - "The row holds: time, host group, release id and previous release id, model repo and revision, vLLM
    version, every launch parameter, the plan's predicted KV-cache tokens against the tokens vLLM logged
    (C(KV cache size: N tokens) in O(journal_text)) and reported (C(vllm:cache_config_info) in C(/metrics),
    from the acceptance results), request rate, output tokens/s, TTFT / inter-token / request latency
    percentiles, memory growth, and the verdict per check."
  - Secrets never reach the ledger or the report; keys named like a credential are dropped, credential
    flags, bearer tokens, URL credentials and O(redact_values) are replaced with C(<redacted>).
  - "Runs on the controller; use C(delegate_to: localhost). Appends are serialised with a lock file, so
    several hosts may record at once."
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
requirements:
  - matplotlib on the controller for the plots (the report is written without them otherwise).
options:
  ledger_dir:
    description: Directory on the controller holding C(ledger.csv), C(ledger.jsonl) and (by default) the reports.
    type: path
    required: true
  host_group:
    description: The inventory group (replica group) this attempt deployed to; rows are compared within it.
    type: str
    required: true
  release_id:
    description: Id of the release this attempt deployed.
    type: str
    required: true
  previous_release_id:
    description: Id of the release that served before; its latest row is the one the report compares with.
    type: str
    default: ""
  attempt_id:
    description:
      - Identifies this attempt. When a row with this id is already in the ledger, nothing is appended and
        C(changed) is false, so a re-run of the same play does not count the attempt twice.
    type: str
  time:
    description: Time of the attempt (ISO 8601). Default now, in UTC.
    type: str
  model_repo:
    description: Model repository id, such as C(moonshotai/Kimi-K3).
    type: str
    default: ""
  model_revision:
    description: The model revision's commit sha.
    type: str
    default: ""
  vllm_version:
    description: The vLLM version; default the one the server reported to the acceptance suite.
    type: str
    default: ""
  launch_params:
    description:
      - Every launch parameter, as the plan (the output of M(kimi.deploy.kimi_vllm_plan), of any C(schema_version), read
        through its fields), a dict of parameters (names as keys, such as C(max_model_len)) or the C(vllm serve)
        argument list (such as C(serve /models/m --max-model-len 8192 -tp 8)). Numbers and booleans are typed,
        C(--no-x) gives C(x=false), credential flags are dropped.
    type: raw
  predicted_kv_tokens:
    description: KV-cache tokens the plan predicted vLLM would allocate.
    type: int
  journal_text:
    description:
      - The unit's journal (or vLLM's log) since the start; its C(KV cache size) line and memory items are
        recorded. Prefer O(log_facts), read on the host, so the journal does not travel to the controller.
    type: str
    default: ""
  log_facts:
    description:
      - What M(kimi.deploy.kimi_vllm_log_facts) read from the start's log on the host (its C(facts));
        replaces O(journal_text).
    type: dict
  predicted_memory:
    description:
      - The plan's C(memory) (M(kimi.deploy.kimi_vllm_plan)); each memory item the start measured is recorded beside its
        prediction, with the error, in the row's C(reserves).
    type: dict
  plan_calibration:
    description:
      - The plan's C(calibration). When a calibration was in use, every item of this start that moved more than
        2 % from it (and more than the log's 0.01 GiB resolution) is listed in C(calibration_drift) and warned
        about.
    type: dict
  canary:
    description:
      - The registered result of M(kimi.deploy.kimi_canary) when a canary ran (kimi_canary_enabled); the row keeps
        its C(verdict) (promote or rollback), C(inconclusive), C(reason) and C(figures) as C(canary).
    type: dict
  acceptance:
    description:
      - The registered result of M(kimi.deploy.kimi_vllm_acceptance), passed or failed. Left out (with
        O(acceptance_file) also left out) when the attempt failed before acceptance; the row then records
        the check C(acceptance_not_run) as failed.
    type: dict
  acceptance_file:
    description: >-
      The acceptance results JSON on the controller (O(kimi.deploy.kimi_vllm_acceptance#module:results_file),
      fetched).
    type: path
  report:
    description: Write the HTML report.
    type: bool
    default: true
  report_dir:
    description: Where reports go. Default C(<ledger_dir>/reports).
    type: path
  embed_images:
    description: Embed the plots in the HTML as base64 (one self-contained file); V(false) writes PNGs beside it.
    type: bool
    default: true
  note:
    description: Free text kept in the row, such as why an attempt stopped before acceptance.
    type: str
    default: ""
  redact_values:
    description: Secret values (the API key, the Hub token) to replace wherever they would appear.
    type: list
    elements: str
    default: []
attributes:
  platform:
    platforms: posix
  check_mode:
    support: full
    description: Builds the row and the comparison and returns them, writes nothing; C(changed) says whether a
      real run would append.
  diff_mode:
    support: none
seealso:
  - module: kimi.deploy.kimi_vllm_acceptance
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
"""

EXAMPLES = r"""
- name: Record the attempt in the ledger and write the report
  kimi_ledger:
    ledger_dir: "{{ playbook_dir }}/../ledger"
    host_group: "{{ kimi_replica_group | default('gpu_nodes') }}"
    release_id: "{{ kimi_release_id }}"
    previous_release_id: "{{ kimi_release_previous | default('') }}"
    attempt_id: "{{ kimi_release_id }}-{{ inventory_hostname }}-{{ kimi_deploy_started }}"
    model_repo: "{{ kimi_model_repo }}"
    model_revision: "{{ kimi_model_sha }}"
    launch_params: "{{ kimi_plan_result }}"
    predicted_kv_tokens: "{{ kimi_plan_result.predicted_kv_tokens }}"
    log_facts: "{{ kimi_log_facts.facts }}"
    predicted_memory: "{{ kimi_plan_result.memory }}"
    plan_calibration: "{{ kimi_plan_result.calibration }}"
    acceptance: "{{ kimi_acceptance_result }}"
    redact_values: ["{{ kimi_api_key }}"]
  delegate_to: localhost
  become: false
  register: kimi_ledger_result
"""

RETURN = r"""
row:
  description: The ledger row (keys in C(ledger.csv) column order; C(checks) and C(launch_params) as dicts).
  returned: always
  type: dict
  sample:
    release_id: 3f2a9c1e
    accepted: true
    kv_tokens_logged: 1048576
    reserves:
      - {item: activation_reserve_bytes, predicted: 2727000000, measured: 5196910756, error_bytes: 2469910756,
         error_pct: 90.57, plan: estimated, read_from: "logged: peak activation - estimated CUDA graph memory"}
    calibration_drift: []
    output_tokens_per_s: 612.4
    ttft_p50_ms: 21.3
    checks: {long_input_text: passed, concurrency: passed}
appended:
  description: Whether a row was appended (false in check mode and when O(attempt_id) was already recorded).
  returned: always
  type: bool
csv_path:
  description: Path of C(ledger.csv).
  returned: always
  type: str
jsonl_path:
  description: Path of C(ledger.jsonl).
  returned: always
  type: str
report_path:
  description: Path of the HTML report (written unless in check mode or O(report=false)).
  returned: when O(report) is true
  type: str
image_files:
  description: PNG files written beside the report when O(embed_images=false).
  returned: when O(report) is true
  type: list
  elements: str
previous_row:
  description: The row compared with (the previous release's latest row in this host group), or null.
  returned: always
  type: dict
comparison:
  description: Metric changes (with better/worse), launch parameters, identity fields and check verdicts that
    changed from the previous row.
  returned: always
  type: dict
"""

import json
import re
from pathlib import Path

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.calibration import drift_warning
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.ledger import (
    JSONL_NAME,
    append_row,
    build_row,
    compare_rows,
    previous_row,
    read_rows,
    redact_strings,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.report import render_report


def _file_part(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "x"


def _report_path(report_dir: Path, row: dict) -> Path:
    stamp = re.sub(r"[^0-9T]", "", str(row["time"]).split("+", maxsplit=1)[0])
    return report_dir / f"{_file_part(row['host_group'])}-{_file_part(row['release_id'])}-{stamp}.html"


def main():
    module = AnsibleModule(
        argument_spec=dict(
            ledger_dir=dict(type="path", required=True),
            host_group=dict(type="str", required=True),
            release_id=dict(type="str", required=True),
            previous_release_id=dict(type="str", default=""),
            attempt_id=dict(type="str"),
            time=dict(type="str"),
            model_repo=dict(type="str", default=""),
            model_revision=dict(type="str", default=""),
            vllm_version=dict(type="str", default=""),
            launch_params=dict(type="raw"),
            predicted_kv_tokens=dict(type="int", no_log=False),
            journal_text=dict(type="str", default=""),
            log_facts=dict(type="dict"),
            predicted_memory=dict(type="dict"),
            plan_calibration=dict(type="dict"),
            canary=dict(type="dict"),
            acceptance=dict(type="dict"),
            acceptance_file=dict(type="path"),
            report=dict(type="bool", default=True),
            report_dir=dict(type="path"),
            embed_images=dict(type="bool", default=True),
            note=dict(type="str", default=""),
            redact_values=dict(type="list", elements="str", default=[], no_log=True),
        ),
        mutually_exclusive=[("acceptance", "acceptance_file")],
        supports_check_mode=True,
    )
    p = module.params
    secrets = [v for v in p["redact_values"] if v]
    acceptance = p["acceptance"]
    if p["acceptance_file"]:
        try:
            acceptance = json.loads(Path(p["acceptance_file"]).read_text())
        except (OSError, ValueError) as err:
            module.fail_json(msg=f"cannot read acceptance_file {p['acceptance_file']}: {err}; give the results JSON "
                                 "that kimi_vllm_acceptance wrote (results_file)")
    acceptance = redact_strings(acceptance, secrets) if acceptance else None
    launch_params = p["launch_params"]
    if launch_params is not None and not isinstance(launch_params, (dict, list)):
        module.fail_json(msg=f"launch_params is a {type(launch_params).__name__}: pass the plan's parameters as a "
                             "dict or the vllm serve arguments as a list")
    ledger_dir = Path(p["ledger_dir"])
    try:
        row = build_row(host_group=p["host_group"], release_id=p["release_id"],
                        previous_release_id=p["previous_release_id"], model_repo=p["model_repo"],
                        model_revision=p["model_revision"], vllm_version=p["vllm_version"],
                        launch_params=launch_params, predicted_kv_tokens=p["predicted_kv_tokens"],
                        journal_text=p["journal_text"], acceptance=acceptance, time=p["time"],
                        attempt_id=p["attempt_id"], note=p["note"], secret_values=secrets,
                        log_facts=p["log_facts"], predicted_memory=p["predicted_memory"],
                        plan_calibration=p["plan_calibration"], canary=p["canary"])
    except KimiDeployError as err:
        module.fail_json(msg=str(err))
    rows = read_rows(ledger_dir / JSONL_NAME)
    existing = [r for r in rows if p["attempt_id"] and r.get("attempt_id") == p["attempt_id"]]
    if existing:
        row = existing[-1]
        rows = [r for r in rows if r is not row]
    previous = previous_row(rows, host_group=p["host_group"], release_id=p["release_id"],
                            previous_release_id=p["previous_release_id"])
    comparison = compare_rows(previous, row)
    for entry in row.get("calibration_drift") or []:
        module.warn(drift_warning(entry))
    result = dict(row=row, previous_row=previous, comparison=comparison, appended=False,
                  csv_path=str(ledger_dir / "ledger.csv"), jsonl_path=str(ledger_dir / JSONL_NAME))
    report_dir = Path(p["report_dir"]) if p["report_dir"] else ledger_dir / "reports"
    if p["report"]:
        result["report_path"] = str(_report_path(report_dir, row))
        result["image_files"] = []
    if module.check_mode or existing:
        # Check mode reports what a real run would do: append unless the attempt is already recorded.
        module.exit_json(changed=not existing, **result)
    try:
        paths = append_row(ledger_dir, row)
        for warning in paths.pop("warnings"):
            module.warn(warning)
        result.update(paths, appended=True)
        if p["report"]:
            rendered = render_report(row, acceptance, result["report_path"], comparison=comparison,
                                     embed_images=p["embed_images"])
            result["image_files"] = rendered["image_files"]
            result["report_notes"] = rendered["notes"]
    except OSError as err:
        module.fail_json(msg=f"could not write the ledger or report under {ledger_dir}: {err}; check the "
                             "directory exists and is writable on the controller", **result)
    module.exit_json(changed=True, **result)


if __name__ == "__main__":
    main()
