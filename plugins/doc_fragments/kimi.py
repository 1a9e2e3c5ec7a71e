# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Documentation the kimi_* modules share: one text per idea, extended by each module that has it."""


class ModuleDocFragment:
    # Modules that support check mode in full and report no diff (their results say what changed).
    CHECK_MODE_NO_DIFF = r"""
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
  platform:
    platforms: posix
"""

    # Modules that support check mode and diff mode in full (they change files or links on the host).
    CHECK_MODE_DIFF = r"""
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
  platform:
    platforms: posix
"""

    # The long tasks that keep the run's deploy lock alive while they work.
    DEPLOY_LOCK = r"""
options:
  deploy_lock:
    description:
      - The deploy lock this run holds (C(kimi_preflight_lock), set by the kimi_preflight role's lock tasks).
        While the task runs, the lock's heartbeat is refreshed every O(deploy_lock.interval_s), so that a
        long task is not mistaken for a dead run and its lock taken over. Omitted, nothing is refreshed.
      - If another run took the lock over, the task warns and stops refreshing it.
    type: dict
    suboptions:
      path:
        description: The lock file.
        type: path
        required: true
      run_id:
        description: This run's token, as in the lock.
        type: str
        required: true
      interval_s:
        description: Seconds between heartbeats.
        type: float
        default: 60
"""
