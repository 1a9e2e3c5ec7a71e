#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_deploy_root
short_description: Create the deploy root's directories with their owners and modes, in one call
description:
  - The deploy root holds C(releases/), C(shared/models), C(shared/venvs), C(shared/secrets) (root
    only, mode 0700) and C(shared/cache) (the service user's home, mode 0750); the list is
    C(core.releases.root_layout).
  - Creates what is missing and corrects owner, group and mode where they differ; reports changed
    only then. One module call instead of a file task per directory (each costs an SSH round trip).
version_added: "0.5.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  root:
    description: Deploy root.
    type: path
    required: true
  service_user:
    description: The user vLLM runs as; owns the cache directory (group of the same name).
    type: str
    required: true
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_DIFF
"""

EXAMPLES = r"""
- name: Create the deploy root layout
  kimi.deploy.kimi_deploy_root:
    root: /opt/kimi
    service_user: kimi-vllm
"""

RETURN = r"""
created:
  description: Directories this run created (would create, in check mode).
  returned: always
  type: list
  elements: str
  sample: [/opt/kimi/shared/cache]
corrected:
  description: Existing directories whose owner, group or mode this run corrected.
  returned: always
  type: list
  elements: str
layout:
  description: Every directory of the root with its mode and owner.
  returned: always
  type: list
  elements: dict
  sample: [{path: /opt/kimi/shared/secrets, mode: "0700", owner: root}]
"""

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.releases import root_layout


def _file_args(module, directory) -> dict:
    return module.load_file_common_arguments({"path": directory.path, "mode": f"{directory.mode:04o}",
                                              "owner": directory.owner, "group": directory.owner})


def main():
    module = AnsibleModule(
        argument_spec=dict(
            root=dict(type="path", required=True),
            service_user=dict(type="str", required=True),
        ),
        supports_check_mode=True,
    )
    layout = root_layout(module.params["root"], module.params["service_user"])
    created, corrected = [], []
    before, after = {}, {}
    for directory in layout:
        wanted = {"mode": f"{directory.mode:04o}", "owner": directory.owner}
        if not os.path.isdir(directory.path):
            if os.path.lexists(directory.path):
                module.fail_json(msg=f"{directory.path} exists and is not a directory: move it away, then re-run")
            created.append(directory.path)
            before[directory.path], after[directory.path] = "absent", wanted
            if module.check_mode:
                continue
            os.mkdir(directory.path, directory.mode)
        file_diff = {"before": {}, "after": {}}
        if module.set_fs_attributes_if_different(_file_args(module, directory), False, diff=file_diff) \
                and directory.path not in created:
            corrected.append(directory.path)
            before[directory.path], after[directory.path] = file_diff["before"], file_diff["after"]
    result = {
        "changed": bool(created or corrected),
        "created": created,
        "corrected": corrected,
        "layout": [{"path": d.path, "mode": f"{d.mode:04o}", "owner": d.owner} for d in layout],
    }
    if module._diff and result["changed"]:
        result["diff"] = {"before": before, "after": after}
    module.exit_json(**result)


if __name__ == "__main__":
    main()
