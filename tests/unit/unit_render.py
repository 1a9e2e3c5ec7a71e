"""Render the project's systemd unit templates the way the roles do, with ansible-core's Templar.

Variables come from the roles' own defaults and vars (loaded as Ansible loads them: trusted as
templates, so nested defaults such as kimi_vllm_syscall_filter resolve), plus what the play supplies
(inventory, replica placement). ``lookup('ansible.builtin.template', ...)`` in the unit templates runs
for real, so the shared sandbox piece is rendered exactly as on a host.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
VAR_FILES = (
    "roles/kimi/defaults/main.yml", "roles/kimi/vars/main.yml",
    "roles/kimi_vllm/defaults/main.yml", "roles/kimi_vllm/vars/main.yml",
)
TEMPLATES = {
    "vllm": "roles/kimi_vllm/templates/kimi-vllm.service.j2",
    "ray": "roles/kimi_vllm/templates/kimi-ray.service.j2",
    "uvm": "roles/kimi_vllm/templates/kimi-nvidia-uvm.service.j2",
}
# Where each node sits: a single host, and the head and a worker of a two-node replica.
PLACEMENTS = {
    "single": {"groups": {"gpu_nodes": ["h200-1"]}, "inventory_hostname": "h200-1", "kimi_replica_group": ""},
    "head": {"groups": {"gpu_nodes": ["h200-a-1", "h200-a-2"], "k3_a": ["h200-a-1", "h200-a-2"]},
             "inventory_hostname": "h200-a-1", "kimi_replica_group": "k3_a"},
    "worker": {"groups": {"gpu_nodes": ["h200-a-1", "h200-a-2"], "k3_a": ["h200-a-1", "h200-a-2"]},
               "inventory_hostname": "h200-a-2", "kimi_replica_group": "k3_a"},
}


_plugins_ready = False


def role_variables(**overrides: Any) -> dict[str, Any]:
    from ansible.parsing.dataloader import DataLoader

    loader = DataLoader()
    variables: dict[str, Any] = {}
    for name in VAR_FILES:
        loaded = loader.load_from_file(str(REPO / name), trusted_as_template=True) or {}
        variables.update(_with_short_filter_names(loaded))
    variables.update({
        "ansible_managed": "Ansible managed",
        "kimi_model_repo": "moonshotai/Kimi-K3",
        "hostvars": {},
    })
    variables.update(overrides)
    return variables


def _init_plugins() -> None:
    from ansible.plugins.loader import filter_loader, init_plugin_loader

    global _plugins_ready  # noqa: PLW0603 - ansible's plugin loader may be set up once per process
    if not _plugins_ready:
        init_plugin_loader([])  # what ansible-playbook does first: ansible.builtin.* lookups resolve
        filter_loader.add_directory(str(REPO / "plugins" / "filter"))  # ansible.cfg's filter_plugins
        _plugins_ready = True


def render(unit: str, placement: str = "single", **overrides: Any) -> str:
    """The text of one unit: ``unit`` is vllm, ray or uvm; ``placement`` single, head or worker."""
    variables = role_variables(**PLACEMENTS[placement])
    variables.update(overrides)
    return render_template(REPO / TEMPLATES[unit], variables)


def render_template(template: Path, variables: dict[str, Any]) -> str:
    """Any role template, with ``variables`` as the play would have them (filter plugins included)."""
    from ansible.parsing.dataloader import DataLoader
    from ansible.template import Templar, trust_as_template

    _init_plugins()
    variables = dict(variables, role_path=str(template.parent.parent))
    loader = DataLoader()
    loader.set_basedir(str(template.parent))
    templar = Templar(loader=loader, variables=variables)
    return templar.template(trust_as_template(short_filter_names(template.read_text(encoding="utf-8"))))


# The roles call the collection's filters by FQCN (in a play, a short name resolves only in some
# places). Here the collection is a plain package (ansible_module_utils imports it before Ansible's
# collection finder could load it), so its filters are found by their short names in plugins/filter.
def short_filter_names(text: str) -> str:
    return text.replace("kimi.deploy.kimi_", "kimi_")


def _with_short_filter_names(loaded: dict[str, Any]) -> dict[str, Any]:
    """A vars file's values, their filter calls by short name (see short_filter_names)."""
    from ansible.template import trust_as_template

    return {name: trust_as_template(short_filter_names(value))
            if isinstance(value, str) and "kimi.deploy.kimi_" in value else value
            for name, value in loaded.items()}


def directives(text: str, key: str) -> list[str]:
    """Values of every ``key=`` line of a unit, in order."""
    return [line.split("=", 1)[1] for line in text.splitlines() if line.startswith(f"{key}=")]


def role_defaults(*roles: str, **overrides: Any) -> dict[str, Any]:
    """The defaults and vars of ``roles`` (kimi first), as Ansible loads them, plus ``overrides``."""
    from ansible.parsing.dataloader import DataLoader

    loader = DataLoader()
    variables: dict[str, Any] = {"ansible_managed": "Ansible managed"}
    for role in ("kimi", *roles):
        for name in ("defaults/main.yml", "vars/main.yml"):
            path = REPO / "roles" / role / name
            if path.exists():
                loaded = loader.load_from_file(str(path), trusted_as_template=True) or {}
                variables.update(_with_short_filter_names(loaded))
    variables.update(overrides)
    return variables


def template_value(expression: str, variables: dict[str, Any]) -> Any:
    """What ``{{ expression }}`` is in a play with ``variables`` (derived defaults, for instance)."""
    from ansible.template import Templar, trust_as_template

    _init_plugins()
    return Templar(variables=variables).template(trust_as_template("{{ " + expression + " }}"))
