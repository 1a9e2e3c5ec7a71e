"""A failed deploy's message (kimi_deploy core.diagnose.deploy_failure_message)."""

from __future__ import annotations

DOCUMENTATION = r"""
---
name: kimi_deploy_failure_message
short_description: The message a failed deploy fails with (where, why, what serves now)
version_added: "0.5.0"
author: kimi-deploy contributors (!UNKNOWN)
description:
  - Where the deploy failed (the task and its error), the diagnosis of the unit's journal when it names a
    failed phase, what serves now (the release restored, no release, or nothing moved), and where the
    failed release stays.
options:
  _input:
    description:
      - C({release_id, host, failed_task, error, diagnosis, restored, root}); C(diagnosis) is what
        M(kimi.deploy.kimi_vllm_diagnose) returned (empty when it did not run), C(restored) the result of
        kimi_release's restore (null when the deploy failed before it moved current).
    type: dict
    required: true
"""

EXAMPLES = r"""
- name: Fail the deploy with the reason
  ansible.builtin.fail:
    msg: >-
      {{ {'release_id': kimi_release_id, 'host': inventory_hostname, 'failed_task': ansible_failed_task.name,
          'error': ansible_failed_result.msg, 'diagnosis': kimi_vllm_diagnosis | default({}),
          'restored': kimi_release_restored | default(none), 'root': kimi_root}
         | kimi.deploy.kimi_deploy_failure_message }}
"""

RETURN = r"""
_value:
  description: The message, one paragraph.
  type: str
"""

from ansible.errors import AnsibleFilterError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.diagnose import deploy_failure_message


def kimi_deploy_failure_message(failure: dict) -> str:
    try:
        return deploy_failure_message(**failure)
    except TypeError as err:  # a field missing or unknown
        raise AnsibleFilterError(f"kimi_deploy_failure_message: {err}") from err


class FilterModule:
    def filters(self):
        return {"kimi_deploy_failure_message": kimi_deploy_failure_message}
