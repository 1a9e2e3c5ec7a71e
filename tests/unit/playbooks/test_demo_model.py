"""The demo's model choice: `scripts/demo.sh --vision` deploys the tiny vision model with images declared.

The script keeps the choice in $KIMI_CACHE/demo/model; the demo inventory renders the model, its served name and
the input forms its users send from it (an image form makes the plan serve images and acceptance run the image
checks). Rendered by Ansible itself (an ad-hoc debug on the demo host, which connects to nothing).
"""

from __future__ import annotations

import os
import subprocess

import pytest
from demo_script import demo, demo_inventory_render
from repo_paths import REPO

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="scripts/demo.sh runs as root (it re-runs itself with sudo)")


def inventory_model_vars(cache, **env_extra: str) -> dict:
    return demo_inventory_render(cache, '{"repo": kimi_model_repo, "name": kimi_served_model_name, '
                                        '"forms": kimi_input_forms}', **env_extra)


TEXT = {"repo": "kimi-deploy/tiny-llama", "name": "tiny-llama", "forms": []}
VISION = {"repo": "kimi-deploy/tiny-kimi-vl", "name": "tiny-kimi-vl", "forms": ["text", "image", "tools"]}


def test_vision_is_chosen_kept_and_rendered_with_images_declared(tmp_path):
    assert demo(tmp_path, "model") == "tiny-llama"
    assert not (tmp_path / "demo/model").exists()  # asking changes nothing
    assert inventory_model_vars(tmp_path) == TEXT

    assert demo(tmp_path, "model", "--vision") == "tiny-kimi-vl"
    assert demo(tmp_path, "model") == "tiny-kimi-vl"  # kept for the next command, in a new shell too
    assert inventory_model_vars(tmp_path) == VISION

    assert demo(tmp_path, "model", "--text") == "tiny-llama"
    assert inventory_model_vars(tmp_path) == TEXT
    # The environment wins over the stored choice, for the script and a bare ansible-playbook alike.
    assert inventory_model_vars(tmp_path, KIMI_DEMO_MODEL="tiny-kimi-vl") == VISION


def test_an_unknown_model_is_refused(tmp_path):
    env = os.environ | {"KIMI_CACHE": str(tmp_path), "KIMI_DEMO_MODEL": "tiny-gpt"}
    done = subprocess.run(["bash", str(REPO / "scripts/demo.sh"), "model"], env=env, cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "unknown demo model: tiny-gpt" in done.stderr
