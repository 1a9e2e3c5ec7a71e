"""Documentation that is generated must match its source."""

import subprocess
import sys

from repo_paths import REPO


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


def test_every_module_documentation_is_yaml():
    """ansible-doc fails on a plain scalar holding ': ' (scripts/test.sh lint catches it; this is faster)."""
    import ast

    import yaml

    for path in sorted(REPO.glob("plugins/modules/*.py")):
        tree = ast.parse(path.read_text())
        docs = {t.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
                for t in node.targets if isinstance(t, ast.Name) and t.id in ("DOCUMENTATION", "EXAMPLES", "RETURN")}
        assert set(docs) == {"DOCUMENTATION", "EXAMPLES", "RETURN"}, path.name
        for name, text in docs.items():
            try:
                yaml.safe_load(text)
            except yaml.YAMLError as err:
                raise AssertionError(f"{path.name} {name}: {err}") from err
