"""Secrets and trust, checked in the repository's own files: host keys are checked, and every task
that writes a secret hides it from logs and from --diff."""

from __future__ import annotations

import configparser
from pathlib import Path

import pytest
import yaml
from repo_paths import REPO


def test_ansible_cfg_checks_host_keys():
    """Before: host_key_checking = False and StrictHostKeyChecking=no for every inventory, so the
    decrypted API key and tokens went to whatever host answered at the address."""
    cfg = configparser.ConfigParser()
    cfg.read(REPO / "ansible.cfg")
    assert cfg.getboolean("defaults", "host_key_checking") is True
    ssh_args = cfg.get("ssh_connection", "ssh_args", fallback="")
    assert "StrictHostKeyChecking=no" not in ssh_args and "UserKnownHostsFile=/dev/null" not in ssh_args


def _inventory_vars(path: Path) -> dict:
    return yaml.safe_load(path.read_text())["gpu_nodes"].get("vars", {})


def test_no_inventory_relaxes_host_key_checking():
    """The demo checks its host's key strictly too, against the known_hosts file scripts/demo.sh
    writes from the host's own public keys; no other inventory touches the setting."""
    demo = _inventory_vars(REPO / "inventories/demo/hosts.yml")
    assert demo["ansible_host_key_checking"] is True
    assert "StrictHostKeyChecking=yes" in demo["ansible_ssh_args"]
    assert "UserKnownHostsFile={{ __kimi_demo_dir }}/known_hosts" in demo["ansible_ssh_args"]
    for hosts in REPO.glob("inventories/*/hosts.yml"):
        if hosts.parent.name == "demo":
            continue
        text = hosts.read_text() + "".join(p.read_text() for p in hosts.parent.rglob("group_vars/**/*.yml"))
        assert "host_key_checking" not in text and "StrictHostKeyChecking" not in text, hosts


@pytest.mark.parametrize("scenario", sorted(p.parent.name for p in REPO.glob("molecule/*/molecule.yml")))
def test_molecule_relaxes_host_key_checking_in_its_own_config(scenario):
    """Molecule merges each scenario's molecule.yml over .config/molecule/config.yml."""
    base = yaml.safe_load((REPO / ".config/molecule/config.yml").read_text())
    config = yaml.safe_load((REPO / "molecule" / scenario / "molecule.yml").read_text())
    defaults = base["provisioner"]["config_options"]["defaults"] | (
        config.get("provisioner", {}).get("config_options", {}).get("defaults", {}))
    assert defaults["host_key_checking"] is False


def _tasks():
    for path in sorted(REPO.glob("roles/*/tasks/*.yml")):
        for task in _flatten(yaml.safe_load(path.read_text()) or []):
            yield path, task


def _flatten(tasks):
    for task in tasks:
        yield task
        for key in ("block", "rescue", "always"):
            yield from _flatten(task.get(key) or [])


def _writes_a_secret(task: dict) -> bool:
    for module in ("ansible.builtin.template", "ansible.builtin.copy"):
        args = task.get(module)
        if isinstance(args, dict):
            src = Path(str(args.get("src", ""))).name
            if src.startswith("secrets") or "/shared/secrets/" in str(args.get("dest", "")) \
                    or "secrets_file" in str(args.get("dest", "")) or "token_file" in str(args.get("dest", "")):
                return True
    return False


def test_secret_writing_tasks_hide_content_from_logs_and_diff():
    """A template of a secret without diff: false prints the old and new key under --diff."""
    found = [(path, task) for path, task in _tasks() if _writes_a_secret(task)]
    assert len(found) >= 4, found  # API key, Ray token, pip.conf, Hub token
    for path, task in found:
        where = f"{path.relative_to(REPO)}: {task.get('name')}"
        assert task.get("no_log") is True, where
        assert task.get("diff") is False, where
        args = task.get("ansible.builtin.template") or task.get("ansible.builtin.copy")
        assert args.get("mode") in ("0600", "0400"), where


def test_every_secrets_template_is_written_by_such_a_task():
    templates = {p.name for p in REPO.glob("roles/*/templates/secrets*")}
    used = {Path(str((t.get("ansible.builtin.template") or {}).get("src", ""))).name
            for _p, t in _tasks() if _writes_a_secret(t)}
    assert templates <= used, templates - used
