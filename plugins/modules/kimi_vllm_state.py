#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_vllm_state
short_description: Tell whether the running vLLM service must be reloaded or restarted, from what it loaded
description:
  - Compares what the running service loaded with what is on disk, so a change written by a run
    that failed before its restart is still applied by the next run.
  - The unit file (systemd's C(NeedDaemonReload)), the release the main process runs (from its
    command line) against C(<root>/current), and C(KIMI_SECRETS_SHA256) in the main process's
    environment against the secrets file.
  - Also returns the unit's C(InvocationID), read in the same C(systemctl show), so a restart that
    follows can be told apart from the run before it (kimi_vllm_health's C(previous_invocation)).
  - Read-only; runs in check mode.
version_added: "0.4.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  root:
    description: Deploy root (holds C(current)).
    type: path
    required: true
  unit:
    description: The systemd unit of vLLM.
    type: str
    default: kimi-vllm.service
  secrets_file:
    description: The secrets environment file of the unit.
    type: path
    required: true
  current_moved:
    description:
      - This run moved C(current) (a rollback). A running service whose release cannot be named is
        restarted too; one that already runs the release C(current) names keeps serving.
    type: bool
    default: false
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Read what the running service loaded
  kimi_vllm_state:
    root: /opt/kimi
    unit: kimi-vllm.service
    secrets_file: /etc/kimi-deploy/kimi-vllm.env
  register: loaded
"""

RETURN = r"""
restart_required:
  description: The running service has not loaded the current release, unit or secrets.
  returned: always
  type: bool
daemon_reload:
  description: systemd's copy of the unit is older than the file on disk.
  returned: always
  type: bool
reasons:
  description: Why a restart is needed.
  returned: always
  type: list
  elements: str
  sample: [the secrets file changed since the service started]
running_release:
  description: Release the main process runs ("" when not running or not known).
  returned: always
  type: str
active_state:
  description: The unit's ActiveState.
  returned: always
  type: str
invocation_id:
  description:
    - The unit's C(InvocationID) when it was read, the run a restart replaces ("" when the unit is
      stopped or systemd does not know it).
  returned: always
  type: str
  sample: ccc43e1ab6984fc198756197f06ec629
"""

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.service_state import (
    SECRETS_HASH_VAR,
    UNIT_PROPERTIES,
    parse_environ,
    restart_decision,
    running_release,
    secrets_hash,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.systemd_unit import show_unit


def _read(path, binary=False):
    try:
        with open(path, "rb" if binary else "r") as fh:
            return fh.read()
    except OSError:
        return None


def main():
    module = AnsibleModule(
        argument_spec=dict(
            root=dict(type="path", required=True),
            unit=dict(type="str", default="kimi-vllm.service"),
            secrets_file=dict(type="path", required=True, no_log=False),
            current_moved=dict(type="bool", default=False),
        ),
        supports_check_mode=True,
    )
    p = module.params
    try:
        unit = show_unit(module.run_command, p["unit"], UNIT_PROPERTIES)
    except KimiDeployError as err:
        module.fail_json(msg=str(err))
    pid = int(unit.get("MainPID") or 0)
    cmdline = (_read(f"/proc/{pid}/cmdline", binary=True) or b"").decode("utf-8", "replace").split("\0") if pid else []
    environ = parse_environ(_read(f"/proc/{pid}/environ", binary=True) or b"") if pid else {}
    link = os.path.join(p["root"], "current")
    current = os.path.basename(os.readlink(link)) if os.path.islink(link) else ""
    running = running_release(cmdline, p["root"], environ)
    decision = restart_decision(unit, current=current, running=running,
                                secrets_on_disk=secrets_hash(_read(p["secrets_file"])),
                                secrets_loaded=environ.get(SECRETS_HASH_VAR, "") if pid else "",
                                current_moved=p["current_moved"])
    module.exit_json(changed=False, restart_required=decision.restart, daemon_reload=decision.daemon_reload,
                     reasons=decision.reasons, running_release=running,
                     active_state=unit.get("ActiveState", ""), invocation_id=unit.get("InvocationID", ""))


if __name__ == "__main__":
    main()
