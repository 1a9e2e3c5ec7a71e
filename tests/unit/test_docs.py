"""Documentation that is generated must match its source."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_variables_doc_matches_the_argument_specs():
    proc = subprocess.run([sys.executable, str(REPO / "tools/render_variables.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_every_role_default_is_in_its_argument_specs():
    import yaml

    for defaults in REPO.glob("roles/*/defaults/main.yml"):
        role = defaults.parent.parent
        names = {n for n in (yaml.safe_load(defaults.read_text()) or {}) if not n.startswith("__")}
        specs = yaml.safe_load((role / "meta" / "argument_specs.yml").read_text())["argument_specs"]
        documented = {n for entry in specs.values() for n in (entry.get("options") or {})}
        assert names <= documented, f"{role.name}: {sorted(names - documented)} missing from meta/argument_specs.yml"
