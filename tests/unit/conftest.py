"""Make ``kimi_deploy`` importable under plain pytest, the way Ansible ships it to hosts.

Modules import ``ansible.module_utils.kimi_deploy``; the unit tests import ``kimi_deploy``. Both
names point at the same files, so module tests and library tests exercise the same code.
"""

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "plugins" / "module_utils"))
sys.path.insert(0, str(REPO_ROOT / "plugins" / "modules"))

import kimi_deploy  # noqa: E402

sys.modules.setdefault("ansible.module_utils.kimi_deploy", kimi_deploy)
