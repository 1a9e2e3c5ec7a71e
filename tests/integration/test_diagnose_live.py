"""Provoke real failures of the vLLM CPU build with the tiny model and diagnose each log end to end.

Each case breaks one thing (the port, the KV budget, a shard, a header, the config, the tokenizer,
a request), starts the real server, and runs ``kimi_vllm_diagnose`` on the log the server wrote.
A failing start takes 15-50 s on an idle 2-core machine; the whole file about 6 minutes.

``KIMI_DIAGNOSE_FIXTURES_OUT=DIR`` also copies every log to ``DIR/<case>.log``: that is how
``tests/fixtures/vllm-logs/`` was captured (see its README).
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import shutil
import socket
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from vllm_server import VllmServer, base_env

REPO = Path(__file__).resolve().parents[2]
# The unit conftest registers kimi_deploy as the collection's module_utils and puts the modules on
# sys.path; the module runs here need the same, so run it (it is idempotent).
_spec = importlib.util.spec_from_file_location("kimi_unit_conftest", REPO / "tests/unit/conftest.py")
_spec.loader.exec_module(importlib.util.module_from_spec(_spec))
sys.path.insert(0, str(REPO / "tests/unit"))

import kimi_vllm_diagnose
from module_harness import run_module

# This suite's loopback ports, used in turn (one server at a time; a port just freed is not reused at once).
PORTS = itertools.cycle(range(8201, 8210))
MAX_MODEL_LEN = 512
# Tiny llama: 2 layers x (K, V) x 2 KV heads x head_dim 32 x 2 bytes (bf16) = 512 bytes per token.
KV_BYTES_PER_TOKEN = 2 * 2 * 2 * 32 * 2
CPU_BLOCK_SIZE = 128  # the CPU backend's block size (vllm:cache_config_info block_size="128")


def _port(request) -> int:
    return next(PORTS)


def _keep(case: str, log_text: str) -> None:
    out = os.environ.get("KIMI_DIAGNOSE_FIXTURES_OUT")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / f"{case}.log").write_text(log_text)


def _run_server(case: str, model: Path, port: int, tmp_path: Path, *, args=(), env=None, while_up=None):
    """Start vLLM, let it fail (or serve and run ``while_up``), stop it; return (state, log path)."""
    log_path = tmp_path / f"{case}.log"
    argv = ["--max-model-len", str(MAX_MODEL_LEN), *args]
    with VllmServer(model, port=port, args=argv, env=env, log_path=log_path) as srv:
        state = srv.wait(timeout=300)
        if state == "healthy" and while_up is not None:
            while_up(srv)
    _wait_until_settled(log_path)
    _keep(case, log_path.read_text(errors="replace"))
    return state, log_path


def _wait_until_settled(path: Path, quiet_s: float = 1.5, limit_s: float = 15) -> None:
    """Python's resource tracker outlives the server and appends its warnings: wait until it is done."""
    deadline = time.monotonic() + limit_s
    size = -1
    while time.monotonic() < deadline and path.stat().st_size != size:
        size = path.stat().st_size
        time.sleep(quiet_s)


def _diagnose(log_path: Path, **context) -> dict:
    result = run_module(kimi_vllm_diagnose, {"log_file": str(log_path), "context": context}, check_mode=True)
    assert not result.get("failed"), result
    assert result["changed"] is False
    assert result["log_lines_read"] == len(log_path.read_text(errors="replace").splitlines())
    return result


def _post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


@pytest.fixture
def model_copy(tiny_models, tmp_path):
    """A private copy of the tiny llama that a test may break."""
    def copy(shards: int = 1) -> Path:
        dest = tmp_path / f"model-{shards}"
        shutil.copytree(tiny_models("llama", shards=shards), dest)
        return dest
    return copy


def test_port_in_use(vllm_venv, model_copy, tmp_path, request):
    port = _port(request)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", port))
        holder.listen(1)
        state, log = _run_server("port_in_use", model_copy(), port, tmp_path)
    assert state == "exited"
    result = _diagnose(log)
    assert (result["phase"], result["rule"]) == ("startup", "port_in_use")
    assert str(port) in result["cause"] and "ss -ltnp" in result["next_step"]
    assert any("Address already in use" in line for line in result["evidence"])


def test_max_model_len_over_kv_space(vllm_venv, model_copy, tmp_path, request):
    kv_bytes = 1024 * 1024
    env = base_env()
    env.pop("VLLM_CPU_KVCACHE_SPACE")  # the legacy variable overrides --kv-cache-memory-bytes
    state, log = _run_server("kv_cache_too_small", model_copy(), _port(request), tmp_path,
                             args=["--max-model-len", "4096", "--kv-cache-memory-bytes", str(kv_bytes)], env=env)
    assert state == "exited"
    result = _diagnose(log, gpu_memory_utilization=0.9)
    # 1 MiB holds 16 blocks of 128 tokens; vLLM keeps one block back as the null block.
    expected = (kv_bytes // (KV_BYTES_PER_TOKEN * CPU_BLOCK_SIZE) - 1) * CPU_BLOCK_SIZE
    assert expected == 1920
    assert (result["phase"], result["rule"]) == ("startup", "kv_cache_too_small_for_max_model_len")
    assert result["parameter_changes"] == {"max_model_len": expected}
    assert f"from 4096 to {expected}" in result["next_step"]
    assert "--kv-cache-memory-bytes" in result["next_step"]


def test_missing_shard(vllm_venv, model_copy, tmp_path, request):
    model = model_copy(shards=2)
    (model / "model-00002-of-00002.safetensors").unlink()
    state, log = _run_server("missing_shard", model, _port(request), tmp_path)
    assert state == "exited"
    result = _diagnose(log)
    assert (result["phase"], result["rule"]) == ("load", "missing_weight_files")
    assert "model-00002-of-00002.safetensors" in result["cause"]
    assert "Engine core initialization failed" not in result["first_error_line"]


def _corrupt_header(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[8:24] = b"\x00garbage-bytes\xff\xfe"  # inside the JSON header, after its 8-byte length
    path.write_bytes(bytes(data))


def _lfs_pointer(path: Path) -> None:
    size = path.stat().st_size
    path.write_text("version https://git-lfs.github.com/spec/v1\n"
                    f"oid sha256:{'0' * 64}\nsize {size}\n")


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


# A truncated shard (tests/fixtures/vllm-logs/safetensors_truncated.log) fails the same way; two
# starts are enough here.
@pytest.mark.parametrize(("case", "damage", "why"), [
    ("safetensors_corrupt_header", _corrupt_header, "not valid JSON"),
    ("safetensors_lfs_pointer", _lfs_pointer, "git-lfs pointer"),
])
def test_damaged_safetensors(vllm_venv, model_copy, tmp_path, request, case, damage, why):
    model = model_copy()
    damage(model / "model.safetensors")
    state, log = _run_server(case, model, _port(request), tmp_path)
    assert state == "exited"
    result = _diagnose(log)
    assert (result["phase"], result["rule"]) == ("load", "corrupt_safetensors")
    assert why in result["cause"] and "sha256" in result["next_step"]


def test_auto_map_without_trust_remote_code(vllm_venv, model_copy, tmp_path, request):
    # vLLM ignores auto_map when model_type is one transformers knows (llama); it demands
    # trust_remote_code only for a model_type that needs the repo's own configuration code.
    model = model_copy()
    config = json.loads((model / "config.json").read_text())
    config["model_type"] = "tiny_custom"
    config["auto_map"] = {"AutoConfig": "configuration_tiny_custom.TinyCustomConfig"}
    (model / "config.json").write_text(json.dumps(config, indent=2))
    (model / "configuration_tiny_custom.py").write_text(
        "from transformers import LlamaConfig\n\n\nclass TinyCustomConfig(LlamaConfig):\n"
        "    model_type = \"tiny_custom\"\n")
    port = _port(request)
    state, log = _run_server("trust_remote_code_missing", model, port, tmp_path)
    assert state == "exited"
    result = _diagnose(log)
    assert (result["phase"], result["rule"]) == ("load", "trust_remote_code_required")
    assert "--trust-remote-code" in result["next_step"]

    # The next step works: with the flag the same model serves, and a clean stop is not a failure.
    state, log = _run_server("trust_remote_code_given", model, port, tmp_path, args=["--trust-remote-code"])
    assert state == "healthy"
    assert (_diagnose(log)["rule"], _diagnose(log)["healthy"]) == ("no_error_serving", True)


def test_unknown_architecture(vllm_venv, model_copy, tmp_path, request):
    model = model_copy()
    config = json.loads((model / "config.json").read_text())
    config["architectures"] = ["NoSuchModelForCausalLM"]
    (model / "config.json").write_text(json.dumps(config, indent=2))
    state, log = _run_server("unknown_architecture", model, _port(request), tmp_path)
    assert state == "exited"
    result = _diagnose(log)
    assert (result["phase"], result["rule"]) == ("load", "architecture_not_supported")
    assert "NoSuchModelForCausalLM" in result["cause"]


def test_tokenizer_larger_than_model_vocab(vllm_venv, model_copy, tmp_path, request):
    # vLLM does not compare the tokenizer with vocab_size at start: it serves, then the first
    # prompt with a token id past the embedding table kills the engine.
    from tokenizers import Tokenizer

    model = model_copy()
    vocab_size = json.loads((model / "config.json").read_text())["vocab_size"]
    tokenizer = Tokenizer.from_file(str(model / "tokenizer.json"))
    # Added tokens (a fine-tune's new specials, embeddings not resized) take the ids after the vocab.
    added = [f"<extra_{i}>" for i in range(vocab_size - tokenizer.get_vocab_size() + 8)]
    tokenizer.add_tokens(added)
    tokenizer.save(str(model / "tokenizer.json"))
    prompt = f"hello {added[-1]} world"
    assert max(tokenizer.encode(prompt).ids) >= vocab_size
    answers = []

    def send(srv):
        answers.append(_post(srv.url + "/v1/completions", {"model": "tiny", "prompt": prompt, "max_tokens": 4}))

    state, log = _run_server("tokenizer_vocab_larger_than_model", model, _port(request), tmp_path, while_up=send)
    assert state == "healthy" and answers[0][0] == 500
    result = _diagnose(log)
    assert (result["phase"], result["rule"]) == ("runtime", "index_out_of_range")
    assert "tokenizer" in result["cause"] and "vocab_size" in result["cause"]
    assert "IndexError" in result["first_error_line"]


def test_tokenizer_file_broken(vllm_venv, model_copy, tmp_path, request):
    model = model_copy()
    _truncate(model / "tokenizer.json")
    state, log = _run_server("tokenizer_json_truncated", model, _port(request), tmp_path)
    assert state == "exited"
    result = _diagnose(log)
    assert (result["phase"], result["rule"]) == ("load", "tokenizer_file_invalid")
    assert "JSONDecodeError" in result["first_error_line"]


def test_over_long_request_at_runtime(vllm_venv, model_copy, tmp_path, request):
    answers = []

    def send(srv):
        tokens = list(range(10, 10 + MAX_MODEL_LEN + 88))
        answers.append(_post(srv.url + "/v1/completions", {"model": "tiny", "prompt": tokens, "max_tokens": 4}))

    state, log = _run_server("over_long_request", model_copy(), _port(request), tmp_path, while_up=send)
    assert state == "healthy"
    status, body = answers[0]
    assert status == 400 and "maximum context length" in body["error"]["message"]
    result = _diagnose(log)
    # Issue 14: a serving engine whose only errors are clients' 4xx is healthy (phase none).
    assert (result["phase"], result["rule"], result["healthy"]) == ("none", "http_400_responses", True)
    assert result["client_errors"] == [{"status": 400, "method": "POST", "route": "/v1/completions", "count": 1}]
    assert f"max_model_len ({MAX_MODEL_LEN})" in result["cause"]
    assert any('" 400' in line for line in result["evidence"])
