#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_inputs_check
short_description: Refuse deploy settings the code cannot take, one message per failed rule
description:
  - Checks the settings of a deploy (inventory and C(-e) values) against the rules of
    C(kimi_deploy/core/validation.py) and fails once, listing only the rules that failed, each as
    C(name=value) followed by what the value must be.
  - Read-only; it changes nothing and behaves the same in check mode.
  - Credential values are never echoed (shown as C(***)). Pass whether the API key is set, never the key.
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  settings:
    description:
      - Variable name to value. Recognised names are C(kimi_root), C(kimi_model_repo), C(kimi_model_revision),
        C(kimi_require_pinned_revision), C(kimi_served_model_name), C(kimi_max_input_tokens),
        C(kimi_max_output_tokens), C(kimi_concurrency), C(kimi_port), C(kimi_service_name), C(kimi_service_user),
        C(kimi_api_key_set), C(kimi_require_api_key), C(kimi_release_keep), C(kimi_canary_enabled),
        C(kimi_canary_min_requests), C(kimi_plan_overrides),
        C(kimi_plan_extra_args), C(kimi_plan_extra_env), C(kimi_multinode_env), C(kimi_multinode_node_env),
        C(kimi_vllm_pip_extra_args), C(inventory_hostname) and C(gpu_nodes).
      - A rule whose variables are absent is skipped.
    type: dict
    required: true
  purpose:
    description:
      - C(deploy) applies every rule. C(plan) (plan.yml) skips the rules only a deploy needs
        (the API key is set, the revision is a pinned sha).
    type: str
    choices: [deploy, plan]
    default: deploy
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Refuse settings the deploy cannot take
  kimi_inputs_check:
    settings:
      kimi_root: "{{ kimi_root }}"
      kimi_concurrency: "{{ kimi_concurrency }}"
      kimi_api_key_set: "{{ kimi_api_key | length > 0 }}"
"""

RETURN = r"""
problems:
  description: "One message per refused setting, C(name=value: must ...). Empty when all pass."
  returned: always
  type: list
  elements: str
  sample: ["kimi_concurrency=0: must be ≥ 1"]
rules:
  description: The rules applied, in order.
  returned: success
  type: list
  elements: str
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.validation import RULES, check


def main():
    module = AnsibleModule(
        argument_spec=dict(
            settings=dict(type="dict", required=True),
            purpose=dict(type="str", choices=["deploy", "plan"], default="deploy"),
        ),
        supports_check_mode=True,
    )
    purpose = module.params["purpose"]
    problems = check(module.params["settings"], purpose)
    rules = [name for name, _rule, purposes in RULES if purpose in purposes]
    if problems:
        module.fail_json(msg="Refused settings:\n" + "\n".join(problems), problems=problems)
    module.exit_json(changed=False, problems=[], rules=rules)


if __name__ == "__main__":
    main()
