"""No role reads another role's private variables: `__<role>_*` is used only under roles/<role>/.

The owner of a private name is the longest role name that prefixes it (`__kimi_release_id` belongs
to kimi_release, `__kimi_vllm_node` to kimi_vllm); names no other role claims belong to the shared
`kimi` role. What crosses a role is a public, documented name (docs/facts.md): a role's exported
facts and the parameters of its entry points.
"""

import re
from pathlib import Path

import yaml
from task_tree import walk_tasks

REPO = Path(__file__).resolve().parents[3]
PRIVATE = re.compile(r"\b__([a-z][a-z0-9_]*)")
SUFFIXES = {".yml", ".yaml", ".j2"}


def owner(name: str, roles: list[str]) -> str | None:
    """The longest role whose name prefixes the private variable name (without its `__`)."""
    matches = [r for r in roles if name == r or name.startswith(r + "_")]
    return max(matches, key=len, default=None)


def crossings(repo: Path) -> list[str]:
    """`file:line: __name (owner)` for every private name used outside its owning role."""
    roles = sorted(p.name for p in (repo / "roles").iterdir() if p.is_dir())
    files = [p for p in (repo / "roles").rglob("*") if p.suffix in SUFFIXES]
    files += [p for p in (repo / "playbooks").rglob("*") if p.suffix in SUFFIXES]
    files += sorted(repo.glob("*.yml"))
    found = []
    for path in sorted(files):
        rel = path.relative_to(repo)
        home = rel.parts[1] if rel.parts[0] == "roles" else None
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            for match in PRIVATE.finditer(line):
                name = match.group(1)
                role = owner(name, roles)
                if role is None or role == home:
                    continue
                found.append(f"{rel}:{lineno}: __{name} belongs to role {role}")
    return found


def test_owner_is_the_longest_role_prefix():
    roles = ["kimi", "kimi_release", "kimi_vllm"]
    assert owner("kimi_release_created", roles) == "kimi_release"
    assert owner("kimi_replica_head", roles) == "kimi"
    assert owner("kimi_vllm_venv", roles) == "kimi_vllm"
    assert owner("other_thing", roles) is None


def test_crossings_are_found_with_file_and_line(tmp_path):
    (tmp_path / "roles" / "kimi_a" / "tasks").mkdir(parents=True)
    (tmp_path / "roles" / "kimi_b" / "tasks").mkdir(parents=True)
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "roles" / "kimi_a" / "tasks" / "main.yml").write_text("- register: __kimi_a_x\n")
    (tmp_path / "roles" / "kimi_b" / "tasks" / "main.yml").write_text("---\n- debug: {msg: '{{ __kimi_a_x }}'}\n")
    (tmp_path / "playbooks" / "p.yml").write_text("- vars: {__kimi_b_y: 1}\n")
    assert crossings(tmp_path) == [
        "playbooks/p.yml:1: __kimi_b_y belongs to role kimi_b",
        "roles/kimi_b/tasks/main.yml:2: __kimi_a_x belongs to role kimi_a",
    ]


def test_no_private_variable_crosses_a_role():
    found = crossings(REPO)
    assert not found, f"{len(found)} private variables used outside their role:\n" + "\n".join(found)


def exported_facts(repo: Path) -> dict[str, str]:
    """Public names a role's tasks register or set_fact: {name: the first file that sets it}."""
    found = {}
    for path in sorted((repo / "roles").glob("*/tasks/*.yml")):
        for task in walk_tasks(yaml.safe_load(path.read_text())):
            names = list(task.get("ansible.builtin.set_fact") or {})
            names += [task["register"]] if "register" in task else []
            for name in names:
                if not name.startswith("_"):
                    found.setdefault(name, str(path.relative_to(repo)))
    return found


def test_every_exported_fact_is_documented():
    documented = (REPO / "docs" / "facts.md").read_text()
    missing = {name: where for name, where in exported_facts(REPO).items() if f"`{name}`" not in documented}
    assert not missing, f"exported facts missing from docs/facts.md: {missing}"
