#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_deploy_lock
short_description: Hold a per-host lock so that one deploy or rollback at a time changes a host
description:
  - O(state=acquired) creates the lock file atomically (O_EXCL), naming O(owner). A second deploy
    waits up to O(timeout_s), then fails naming the holder. A lock older than O(stale_after_s) (its
    holder died) is taken over, and the result says so.
  - O(state=released) removes it when O(owner) holds it.
  - The lock leaves nothing behind once released, so both states report C(changed=false).
version_added: "0.1.0"
author: kimi-deploy contributors
options:
  path:
    description: Lock file; under /run/lock so a reboot clears it.
    type: path
    default: /run/lock/kimi-deploy.lock
  state:
    description: Take or give back the lock.
    type: str
    choices: [acquired, released]
    default: acquired
  owner:
    description: Who holds it, e.g. C(user@controller pid 123 deploy.yml). Must be the same to release.
    type: str
    required: true
  timeout_s:
    description: How long a second deploy waits for the lock.
    type: float
    default: 600
  stale_after_s:
    description: Age after which a lock is presumed left by a dead deploy and taken over.
    type: float
    default: 21600
  break_lock:
    description: Take over an existing lock at once (its holder is known to be dead). The result says whose it was.
    type: bool
    default: false
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
notes:
  - In check mode the lock is still taken and released, so a dry run does not race a real deploy.
"""

EXAMPLES = r"""
- name: Take the deploy lock
  kimi_deploy_lock:
    owner: "{{ lookup('env', 'USER') }}@{{ lookup('pipe', 'hostname') }} deploy.yml"
    timeout_s: 600
"""

RETURN = r"""
waited_s:
  description: Seconds spent waiting for another deploy.
  returned: state=acquired
  type: float
waited_for:
  description: The holder waited for, if any.
  returned: state=acquired
  type: str
took_over:
  description: The stale lock taken over (owner and age), if any.
  returned: state=acquired
  type: dict
released:
  description: Whether the lock was held by O(owner) and removed.
  returned: state=released
  type: bool
"""

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.kimi_deploy.deploy_lock import acquire, release
from ansible.module_utils.kimi_deploy.errors import KimiDeployError


def main():
    module = AnsibleModule(
        argument_spec=dict(
            path=dict(type="path", default="/run/lock/kimi-deploy.lock"),
            state=dict(type="str", default="acquired", choices=["acquired", "released"]),
            owner=dict(type="str", required=True),
            timeout_s=dict(type="float", default=600),
            stale_after_s=dict(type="float", default=21600),
            break_lock=dict(type="bool", default=False),
        ),
        supports_check_mode=True,
    )
    p = module.params
    try:
        if p["state"] == "acquired":
            result = acquire(p["path"], p["owner"], timeout_s=p["timeout_s"], stale_after_s=p["stale_after_s"],
                             break_lock=p["break_lock"])
            if result["took_over"]:
                module.warn(f"took over the deploy lock held by {result['took_over']['owner']} "
                            f"for {result['took_over']['age_s']} s")
            module.exit_json(changed=False, **{k: v for k, v in result.items() if k != "acquired"})
        module.exit_json(changed=False, released=release(p["path"], p["owner"]))
    except KimiDeployError as err:
        module.fail_json(msg=str(err))


if __name__ == "__main__":
    main()
