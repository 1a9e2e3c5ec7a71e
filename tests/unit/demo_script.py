"""scripts/demo.sh and the demo inventory, run the way a user runs them, against a temporary KIMI_CACHE.

Nothing here reaches a demo host: the subcommands used need none, and the inventory is rendered by an
ad-hoc debug task, which connects to nothing.
"""

from __future__ import annotations

import os
import subprocess

import yaml
from repo_paths import REPO


def demo_env(cache, **extra: str) -> dict[str, str]:
    """The caller's environment without a demo model choice, with KIMI_CACHE at ``cache``."""
    return {k: v for k, v in os.environ.items() if k != "KIMI_DEMO_MODEL"} | {"KIMI_CACHE": str(cache), **extra}


def demo(cache, *args: str) -> str:
    done = subprocess.run(["bash", str(REPO / "scripts/demo.sh"), *args], env=demo_env(cache), cwd=REPO,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def demo_inventory_render(cache, expression: str, **env_extra: str):
    """``expression`` (Jinja, without braces) as inventories/demo renders it for kimi-demo-1."""
    done = subprocess.run(["ansible", "kimi-demo-1", "-i", "inventories/demo", "-m", "ansible.builtin.debug",
                           "-a", f"msg={{{{ {expression} }}}}"], env=demo_env(cache, **env_extra), cwd=REPO,
                          capture_output=True, text=True, check=True)
    return yaml.safe_load(done.stdout.split("=>", 1)[1])["msg"]
