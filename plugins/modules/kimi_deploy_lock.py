#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_deploy_lock
short_description: Hold a per-host lock so that one deploy, rollback or tune at a time changes a host
description:
  - O(state=acquired) creates the lock file atomically (O_CREAT|O_EXCL|O_NOFOLLOW, then a hard link),
    naming O(owner) and carrying O(run_id). A second run waits up to O(timeout_s), then fails naming the
    holder and the age of its heartbeat.
  - The holder (ansible-playbook on the controller) cannot be checked from the host, so it refreshes the
    lock's heartbeat during its long tasks (O(state=heartbeat), or the C(deploy_lock) option of the
    modules that wait long). A lock whose heartbeat is older than O(stale_after_s) was left by a run that
    died; it is taken over, and the result says so. The takeover renames the lock aside, reads it again
    and puts it back if it is not the stale one it saw, so two racers never both get it.
  - The lock's directory must be a real directory owned by root with mode 0700; it is created so when
    missing. A lock that is a symlink, not a regular file, not JSON, without owner or run_id, or with a
    timestamp in the future is invalid; the task fails naming it, and only O(break_lock) replaces it.
  - O(state=released) removes the lock when O(run_id) holds it, and warns when another run took it over.
  - The lock leaves nothing behind once released, so all states report C(changed=false).
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  path:
    description:
      - Lock file, in a directory only root can reach; under /run so a reboot clears it.
    type: path
    default: /run/kimi-deploy/deploy.lock
  state:
    description:
      - Take, refresh (heartbeat) or give back the lock.
    type: str
    choices: [acquired, heartbeat, released]
    default: acquired
  owner:
    description:
      - Who holds it, for people, e.g. C(user@controller deploy started 2026-12-01T10:00:00Z).
      - Required with O(state=acquired).
    type: str
  run_id:
    description:
      - A token unique to this run; only the run that holds the lock refreshes or releases it.
    type: str
    required: true
  timeout_s:
    description: How long a second run waits for the lock.
    type: float
    default: 600
  stale_after_s:
    description:
      - Age of the heartbeat (not of the lock) after which the lock is presumed left by a dead run and
        taken over. Keep it well above the heartbeat interval.
    type: float
    default: 900
  hold_s:
    description:
      - With O(state=heartbeat), keep refreshing the heartbeat every O(interval_s) for this long at most,
        for a host that waits on others (a worker of a multi-node replica while its head passes the health
        gate and acceptance); run it with C(async) and C(poll=0). It ends early once the run releases the
        lock, and stops if another run took it over. C(0) refreshes it once.
      - Bounded, so that a keeper left behind by a dead controller lets the lock go stale afterwards.
    type: float
    default: 0
  interval_s:
    description: Seconds between heartbeats with O(hold_s).
    type: float
    default: 60
  break_lock:
    description:
      - Take over an existing lock at once, an invalid one too (its holder is known to be dead). The result
        says whose it was.
    type: bool
    default: false
notes:
  - In check mode the lock is still taken, refreshed and released, so a dry run does not race a real deploy.
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Take the deploy lock
  kimi_deploy_lock:
    owner: "{{ lookup('env', 'USER') }}@{{ lookup('pipe', 'hostname') }} deploy.yml"
    run_id: "{{ '%032x' | format((2**128) | random) }}"
    timeout_s: 600

- name: Prove this run is alive between long tasks
  kimi_deploy_lock:
    run_id: "{{ kimi_preflight_lock.run_id }}"
    state: heartbeat

- name: Keep a worker's lock alive while the head works (ends when the lock is released)
  kimi_deploy_lock:
    run_id: "{{ kimi_preflight_lock.run_id }}"
    state: heartbeat
    hold_s: 7200
  async: 7260
  poll: 0
"""

RETURN = r"""
waited_s:
  description: Seconds spent waiting for another run.
  returned: state=acquired
  type: float
waited_for:
  description: The holder waited for, if any.
  returned: state=acquired
  type: str
took_over:
  description: The lock taken over (its owner, the age of its heartbeat, and why), if any.
  returned: state=acquired
  type: dict
  sample: {"owner": "ops@ctl deploy started 2026-12-01T04:00:00Z", "heartbeat_age_s": 1800, "why": "stale heartbeat"}
heartbeat_at:
  description: The heartbeat written (seconds since the epoch).
  returned: state=heartbeat and hold_s=0
  type: float
beats:
  description: Heartbeats written.
  returned: state=heartbeat and hold_s>0
  type: int
ended:
  description: Why the keeper ended, C(held) (for O(hold_s)), C(released) or C(taken over).
  returned: state=heartbeat and hold_s>0
  type: str
released:
  description: Whether the lock was held by O(run_id) and removed.
  returned: state=released
  type: bool
held_by:
  description: The owner of the lock found instead of ours (it was taken over), if any.
  returned: state=released
  type: str
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.deploy_lock import (
    LockLost,
    acquire,
    heartbeat,
    hold,
    release,
)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            path=dict(type="path", default="/run/kimi-deploy/deploy.lock"),
            state=dict(type="str", default="acquired", choices=["acquired", "heartbeat", "released"]),
            owner=dict(type="str"),
            run_id=dict(type="str", required=True),
            timeout_s=dict(type="float", default=600),
            stale_after_s=dict(type="float", default=900),
            break_lock=dict(type="bool", default=False),
            hold_s=dict(type="float", default=0),
            interval_s=dict(type="float", default=60),
        ),
        required_if=[("state", "acquired", ("owner",))],
        supports_check_mode=True,
    )
    p = module.params
    try:
        if p["state"] == "acquired":
            result = acquire(p["path"], p["owner"], p["run_id"], timeout_s=p["timeout_s"],
                             stale_after_s=p["stale_after_s"], break_lock=p["break_lock"])
            took = result["took_over"]
            if took:
                age = "" if took["heartbeat_age_s"] is None else f", its heartbeat {took['heartbeat_age_s']} s old"
                module.warn(f"took over the deploy lock {p['path']} held by {took['owner']} ({took['why']}{age})")
            module.exit_json(changed=False, **{k: v for k, v in result.items() if k != "acquired"})
        if p["state"] == "heartbeat" and p["hold_s"] > 0:
            result = hold(p["path"], p["run_id"], hold_s=p["hold_s"], interval_s=p["interval_s"])
            if result["lost"]:
                module.warn(f"{result['lost']}; stopped refreshing {p['path']}")
            module.exit_json(changed=False, **result)
        if p["state"] == "heartbeat":
            record = heartbeat(p["path"], p["run_id"])
            module.exit_json(changed=False, heartbeat_at=record["heartbeat_at"])
        result = release(p["path"], p["run_id"])
        if result["held_by"]:
            module.warn(f"the deploy lock {p['path']} was taken over while this run held it; it is now held by "
                        f"{result['held_by']} and was left alone")
        module.exit_json(changed=False, **result)
    except LockLost as err:
        module.fail_json(msg=f"{err}: this run no longer holds {p['path']}; stop, so that two runs do not change "
                             "this host at once")
    except KimiDeployError as err:
        module.fail_json(msg=str(err))


if __name__ == "__main__":
    main()
