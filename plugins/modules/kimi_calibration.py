#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Ansible module: turn the measurements of a chosen start (a ledger row) into a calibration file."""

from __future__ import annotations

DOCUMENTATION = r"""
---
module: kimi_calibration
short_description: Write a calibration file from the reserves a chosen vLLM start measured
description:
  - Reads the ledger (C(ledger.jsonl)) on the controller, takes the row of the start named by O(attempt_id) (or the
    latest row of O(release_id)), and writes the reserves that start measured (activation, non-torch, CUDA graphs;
    weights, requested memory and KV budget kept beside them) to O(dest), keyed by GPU model, vLLM version, model
    and revision, layout and KV dtype.
  - Calibration is an explicit input, never a side effect of a deploy. The inventory pins the file
    (C(kimi_plan_calibration_file)); plans whose key matches use its reserves and mark them C(measured); the
    CUDA context and out-of-pool workspaces are never logged and stay estimated.
  - Refuses a start whose memory vLLM did not profile (C(--kv-cache-memory-bytes), vLLM's startup plan, the CPU
    build).
  - The file is stable JSON; the same start always writes the same bytes, so C(changed) means the reserves moved.
version_added: "0.2.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  ledger_dir:
    description: The controller's ledger directory (C(kimi_ledger_dir)).
    type: path
    required: true
  dest:
    description: The calibration file to write (JSON). The inventory pins this path as C(kimi_plan_calibration_file).
    type: path
    required: true
  attempt_id:
    description: The ledger row (start) to calibrate from.
    type: str
  release_id:
    description: Calibrate from the latest row of this release (with O(host_group), within that group).
    type: str
  host_group:
    description: With O(release_id), the replica group the row belongs to.
    type: str
seealso:
  - module: kimi.deploy.kimi_ledger
  - module: kimi.deploy.kimi_vllm_plan
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_DIFF
"""

EXAMPLES = r"""
- name: Calibrate from the start of release 0.32.0-3f2a9c1e0b on k3_h200_a
  kimi_calibration:
    ledger_dir: "{{ kimi_ledger_dir }}"
    release_id: 0.32.0-3f2a9c1e0b
    host_group: k3_h200_a
    dest: "{{ inventory_dir }}/calibration/k3-h200.json"
  delegate_to: localhost
"""

RETURN = r"""
calibration:
  description: The file's content (C(schema), C(key), C(reserves), C(measured), C(measured_from), C(estimated),
    C(source)).
  returned: success
  type: dict
  sample:
    key: {gpu_model: NVIDIA H200, vllm_version: 0.32.0, model_repo: moonshotai/Kimi-K3,
          model_revision: 9f62e4e9fffbd0a83ddd60e1c209d828994b3569, layout: tp8-pp2-dp1-ep0-dcp1-nodes2,
          kv_cache_dtype: bfloat16}
    reserves: {activation_reserve_bytes: 5196910756, non_torch_reserve_bytes: 2147483648,
               cudagraph_reserve_bytes: 2254857830}
dest:
  description: The path written.
  returned: success
  type: str
"""

import os
import tempfile
from pathlib import Path

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.calibration import (
    choose_row,
    dumps,
    from_ledger_row,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.ledger import JSONL_NAME, read_rows


def main():
    module = AnsibleModule(
        argument_spec=dict(
            ledger_dir=dict(type="path", required=True),
            dest=dict(type="path", required=True),
            attempt_id=dict(type="str"),
            release_id=dict(type="str"),
            host_group=dict(type="str"),
        ),
        required_one_of=[("attempt_id", "release_id")],
        supports_check_mode=True,
    )
    p = module.params
    try:
        row = choose_row(read_rows(Path(p["ledger_dir"]) / JSONL_NAME), attempt_id=p["attempt_id"],
                         release_id=p["release_id"], host_group=p["host_group"])
        content = from_ledger_row(row)
    except KimiDeployError as err:
        module.fail_json(msg=str(err))
    dest = Path(p["dest"])
    text = dumps(content)
    before = dest.read_text(encoding="utf-8") if dest.exists() else ""
    changed = before != text
    result = dict(changed=changed, calibration=content, dest=str(dest))
    if module._diff:
        result["diff"] = dict(before=before, after=text, before_header=str(dest), after_header=str(dest))
    if changed and not module.check_mode:
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=str(dest.parent), prefix=f".{dest.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    module.exit_json(**result)


if __name__ == "__main__":
    main()
