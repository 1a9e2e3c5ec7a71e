"""weights_verify on tiny models built by tools/build_tiny_model.py, with faults made by hand.

Expected digests come from independent tools (hashlib over the bytes, ``sha256sum``, ``git
hash-object``); expected capabilities from NVIDIA's published compute capability table.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from kimi_deploy.core.errors import KimiDeployError
from kimi_deploy.core.safetensors_format import read_header, write_file
from kimi_deploy.io.weights_verify import (
    HASH_CACHE,
    PROBE_CACHE,
    ExpectedFile,
    hash_file,
    load_expected,
    parse_expected,
    parse_gpu_architecture,
    probe_vllm,
    quantization_requirements,
    verify_model,
)
from repo_paths import REPO

SHARD1, SHARD2 = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"
K3_CONFIG = json.loads((REPO / "data/models/kimi-k3/config.json").read_text())


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    cache: dict[tuple[str, int], Path] = {}

    def build(arch: str = "llama", shards: int = 2) -> Path:
        if (arch, shards) not in cache:
            out = tmp_path_factory.mktemp(f"{arch}-{shards}")
            subprocess.run([sys.executable, str(REPO / "tools/build_tiny_model.py"), "--arch", arch,
                            "--out", str(out), "--shards", str(shards)], check=True, capture_output=True)
            cache[(arch, shards)] = out
        return cache[(arch, shards)]

    return build


@pytest.fixture
def model(built, tmp_path):
    """A private copy of the 2-shard tiny llama."""
    return Path(shutil.copytree(built(), tmp_path / "model"))


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rename_shards(model: Path, pattern: str) -> list[str]:
    """Rename the two shards with another index naming and rewrite the index to match."""
    index_path = model / "model.safetensors.index.json"
    index = json.loads(index_path.read_text())
    names = {SHARD1: pattern.format(1, 2), SHARD2: pattern.format(2, 2)}
    for old, new in names.items():
        (model / old).rename(model / new)
    index["weight_map"] = {t: names[s] for t, s in index["weight_map"].items()}
    index_path.write_text(json.dumps(index))
    return sorted(names.values())


# --------------------------------------------------------------------------- the shard set

def test_accepts_the_tiny_model_sharded_and_single_file(built):
    for shards in (2, 1):
        result = verify_model(built("llama", shards), use_cache=False)
        assert result.ok, result.failed
        assert result.architectures == ["LlamaForCausalLM"] and result.trust_remote_code is False
    single = verify_model(built("llama", 1), use_cache=False)
    assert single.shards == ["model.safetensors"]
    assert single.weight_bytes == read_header(built("llama", 1) / "model.safetensors").data_len


@pytest.mark.parametrize("pattern", ["model-{:06d}-of-{:06d}.safetensors", "model-{:05d}-of-{:06d}.safetensors",
                                     "model-{}-of-{}.safetensors"])
def test_any_zero_padding_of_the_shard_numbers_is_accepted(model, pattern):
    names = rename_shards(model, pattern)
    result = verify_model(model, use_cache=False)
    assert result.ok, result.failed
    assert result.shards == names


def test_index_that_skips_a_shard_number_fails_on_the_index(model):
    rename_shards(model, "model-{:05d}-of-00003.safetensors")  # 1 and 2 of 3: shard 3 never listed
    result = verify_model(model, use_cache=False)
    assert list(result.failed) == ["model.safetensors.index.json"]
    assert "-of-3 but the index lists no tensor for shard(s) 3" in result.failed["model.safetensors.index.json"][0]


def test_missing_and_extra_shards(model):
    (model / SHARD2).unlink()
    shutil.copyfile(model / SHARD1, model / "model-00003-of-00003.safetensors")
    result = verify_model(model, use_cache=False)
    assert set(result.failed) == result.refetch == {SHARD2, "model-00003-of-00003.safetensors"}
    assert result.failed[SHARD2][0].startswith("missing: model.safetensors.index.json assigns")
    assert result.failed["model-00003-of-00003.safetensors"][0].startswith("extra shard")


def test_an_unindexed_file_that_the_repo_lists_is_only_a_note(model):
    shutil.copyfile(model / SHARD1, model / "consolidated.safetensors")
    expected = {"consolidated.safetensors": ExpectedFile(sha256=sha256_of(model / SHARD1))}
    result = verify_model(model, expected=expected, use_cache=False)
    assert result.ok, result.failed
    assert any("consolidated.safetensors is not in" in n for n in result.notes)


def test_several_weight_files_without_an_index_fail(model):
    (model / "model.safetensors.index.json").unlink()
    result = verify_model(model, use_cache=False)
    assert "no *.safetensors.index.json" in result.failed[SHARD1][0]


# --------------------------------------------------------------------------- headers and sizes

def test_truncated_shard_is_caught_from_its_header_without_hashing(model):
    size = (model / SHARD1).stat().st_size
    os.truncate(model / SHARD1, size - 10)
    result = verify_model(model, hash_files=False, use_cache=False)
    assert result.hashed_bytes == 0
    assert result.failed[SHARD1] == [f"truncated: its header describes {size} bytes, the file has {size - 10} "
                                     "(10 missing)"]


def test_truncated_shard_is_not_hashed_even_when_hashing(model):
    os.truncate(model / SHARD2, 100)
    result = verify_model(model, use_cache=False)
    assert SHARD2 not in result.hashed_files and SHARD2 in result.failed


def test_trailing_bytes_are_refused(model):
    with (model / SHARD2).open("ab") as fh:
        fh.write(b"\0" * 8)
    result = verify_model(model, use_cache=False)
    assert result.failed[SHARD2][0].startswith("8 bytes after the last tensor")


def test_lfs_pointer_saved_as_a_shard(model):
    (model / SHARD1).write_text("version https://git-lfs.github.com/spec/v1\noid sha256:" + "0" * 64
                                + "\nsize 820880\n")
    result = verify_model(model, use_cache=False)
    assert "not a safetensors file" in result.failed[SHARD1][0]


def test_tensor_names_must_match_the_index(model):
    header = read_header(model / SHARD2)
    data = (model / SHARD2).read_bytes()[header.data_start:]
    tensors = {t.name: (t.dtype, t.shape, data[t.begin:t.end]) for t in header.tensors.values()}
    victim = sorted(tensors)[0]
    tensors["renamed.weight"] = tensors.pop(victim)
    write_file(model / SHARD2, tensors, header.metadata)
    result = verify_model(model, use_cache=False)
    reason = result.failed[SHARD2][0]
    assert reason.startswith("tensor names disagree with the index")
    assert f"lacks 1 tensor(s) the index assigns to it, e.g. [{victim!r}]" in reason
    assert "holds 1 tensor(s) the index does not assign to it, e.g. ['renamed.weight']" in reason


# --------------------------------------------------------------------------- checksums

def test_sha256_against_sha256sum_output(model):
    names = sorted(p.name for p in model.iterdir())
    text = subprocess.run(["sha256sum", *names], cwd=model, capture_output=True, text=True, check=True).stdout
    (model.parent / "SHA256SUMS").write_text(text)
    expected = load_expected(model.parent / "SHA256SUMS")
    assert set(expected) == set(names)
    result = verify_model(model, expected=expected, use_cache=False)
    assert result.ok, result.failed
    assert result.digests[SHARD1] == expected[SHARD1].sha256


def test_one_flipped_byte_fails_the_sha256(model):
    expected = {SHARD1: ExpectedFile(sha256=sha256_of(model / SHARD1))}
    with (model / SHARD1).open("r+b") as fh:
        fh.seek(-1, os.SEEK_END)
        last = fh.read(1)
        fh.seek(-1, os.SEEK_END)
        fh.write(bytes([last[0] ^ 1]))
    result = verify_model(model, expected=expected, use_cache=False)
    assert list(result.failed) == [SHARD1]
    assert f"expected {expected[SHARD1].sha256}" in result.failed[SHARD1][0]


def test_git_blob_sha1_for_small_files(model):
    oid = subprocess.run(["git", "hash-object", str(model / "config.json")], capture_output=True, text=True,
                         check=True).stdout.strip()
    expected = parse_expected({"files": {"config.json": {"git_blob_sha1": oid}}})
    assert verify_model(model, expected=expected, use_cache=False).ok
    text = (model / "config.json").read_text()
    (model / "config.json").write_text(text.replace('"num_hidden_layers": 2', '"num_hidden_layers": 3'))
    result = verify_model(model, expected=expected, use_cache=False)
    assert "git blob sha1 mismatch" in result.failed["config.json"][0]


def test_manifest_files_that_are_absent_or_of_another_size(model):
    size = (model / SHARD1).stat().st_size
    expected = parse_expected({"files": {"gone.safetensors": {"size": 5}, SHARD1: {"size": size + 1}}})
    result = verify_model(model, expected=expected, use_cache=False)
    assert result.failed["gone.safetensors"] == ["missing: the expected manifest lists it"]
    assert result.failed[SHARD1][0].startswith(f"wrong size: {size} bytes, the manifest says {size + 1}")


def test_parallel_hashing_gives_the_sequential_digests(model):
    result = verify_model(model, workers=4, use_cache=False)
    assert result.digests == {p.name: sha256_of(p) for p in model.iterdir()}
    assert result.hashed_bytes == sum(p.stat().st_size for p in model.iterdir())
    assert hash_file(model / SHARD1, ("sha256", "git_blob_sha1"))["git_blob_sha1"] == hashlib.sha1(
        b"blob %d\0" % (model / SHARD1).stat().st_size + (model / SHARD1).read_bytes()).hexdigest()


@pytest.mark.parametrize(("doc", "message"), [
    ({"a.json": "xyz"}, "not a hex digest"),
    ({"/etc/passwd": "0" * 64}, "must be relative"),
    ({"../x": "0" * 64}, "must be relative"),
    ({"a": {"size": -1}}, "non-negative"),
    ({"a": {}}, "neither sha256"),
    (["a"], "expected a JSON object"),
])
def test_bad_manifests_are_refused(doc, message):
    with pytest.raises(KimiDeployError, match=message):
        parse_expected(doc)


def test_bad_sha256sum_line_is_refused(tmp_path):
    (tmp_path / "sums").write_text("not a checksum line\n")
    with pytest.raises(KimiDeployError, match="line 1 is not"):
        load_expected(tmp_path / "sums")


# --------------------------------------------------------------------------- the cache

def test_unchanged_tree_reverifies_from_stat_alone(model):
    expected = {p.name: ExpectedFile(sha256=sha256_of(p)) for p in model.iterdir()}
    first = verify_model(model, expected=expected)
    assert first.ok and first.hashed_bytes > 0 and (model / HASH_CACHE).is_file()
    again = verify_model(model, expected=expected)
    assert again.ok and again.hashed_bytes == 0 and sorted(again.cached) == sorted(expected)


def test_a_rewrite_that_restores_size_and_mtime_is_still_noticed(model):
    expected = {SHARD1: ExpectedFile(sha256=sha256_of(model / SHARD1))}
    assert verify_model(model, expected=expected).ok
    st = (model / SHARD1).stat()
    data = bytearray((model / SHARD1).read_bytes())
    data[-1] ^= 0xFF
    (model / SHARD1).write_bytes(bytes(data))
    os.utime(model / SHARD1, ns=(st.st_atime_ns, st.st_mtime_ns))  # same size, same mtime; ctime moved
    result = verify_model(model, expected=expected)
    assert SHARD1 in result.hashed_files and "sha256 mismatch" in result.failed[SHARD1][0]


def test_cache_off_and_unwritable_cache(model, tmp_path):
    verify_model(model, use_cache=False)
    assert not (model / HASH_CACHE).exists()
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = verify_model(model, cache_path=blocker / "sub" / "cache.json")
    assert result.ok and any("not writable" in n for n in result.notes)


def test_missing_directory_is_an_error(tmp_path):
    with pytest.raises(KimiDeployError, match="does not exist"):
        verify_model(tmp_path / "nope")


# --------------------------------------------------------------------------- config and tokenizer

def edit_json(path: Path, **changes) -> None:
    doc = json.loads(path.read_text())
    doc.update(changes)
    path.write_text(json.dumps(doc))


def test_tokenizer_larger_than_the_vocabulary(model):
    from tokenizers import Tokenizer

    size = Tokenizer.from_file(str(model / "tokenizer.json")).get_vocab_size(with_added_tokens=True)
    edit_json(model / "config.json", vocab_size=size - 1)
    result = verify_model(model, hash_files=False, use_cache=False)
    assert result.failed["tokenizer.json"][0].startswith(
        f"has token ids up to {size - 1} but config.json vocab_size is {size - 1}")
    edit_json(model / "config.json", vocab_size=size)
    assert verify_model(model, hash_files=False, use_cache=False).ok


def test_special_token_ids_must_exist(model):
    edit_json(model / "generation_config.json", eos_token_id=[5000])
    result = verify_model(model, hash_files=False, use_cache=False)
    assert result.failed["generation_config.json"] == ["eos_token_id 5000 is outside vocab_size 1024"]
    assert result.refetch == set()  # a consistency failure: a fresh copy of the same revision won't fix it


def test_special_token_text_must_exist(model):
    edit_json(model / "tokenizer_config.json", eos_token="<|not_in_this_tokenizer|>")
    result = verify_model(model, hash_files=False, use_cache=False)
    assert "has no token '<|not_in_this_tokenizer|>'" in result.failed["tokenizer.json"][0]


def test_no_tokenizer(model):
    (model / "tokenizer.json").unlink()
    result = verify_model(model, hash_files=False, use_cache=False)
    assert result.failed["tokenizer"][0].startswith("no tokenizer file")
    assert verify_model(model, hash_files=False, use_cache=False, require_tokenizer=False).ok


def test_auto_map_means_trust_remote_code_and_needs_its_files(model):
    edit_json(model / "config.json", auto_map={"AutoConfig": "configuration_x.XConfig",
                                               "AutoModelForCausalLM": "modeling_x.XForCausalLM"})
    result = verify_model(model, hash_files=False, use_cache=False)
    assert result.trust_remote_code is True
    assert set(result.failed) == {"configuration_x.py", "modeling_x.py"}
    (model / "configuration_x.py").write_text("")
    (model / "modeling_x.py").write_text("")
    assert verify_model(model, hash_files=False, use_cache=False).ok


def test_tokenizer_check_is_redone_when_a_config_changes(model):
    assert verify_model(model, hash_files=False).ok  # records the passing check in the cache
    edit_json(model / "config.json", vocab_size=100)
    assert "tokenizer.json" in verify_model(model, hash_files=False).failed


def test_tiktoken_vocabulary(model):
    (model / "tokenizer.json").unlink()
    (model / "tiktoken.model").write_bytes(b"".join(b"QQ== %d\n" % i for i in range(1000)))
    edit_json(model / "tokenizer_config.json", added_tokens_decoder={
        str(i): {"content": t} for i, t in [(1000, "<|endoftext|>"), (1001, "<|im_start|>"),
                                            (1002, "<|im_end|>"), (1003, "<|pad|>")]})
    edit_json(model / "config.json", bos_token_id=1000, eos_token_id=1002, pad_token_id=1003)
    edit_json(model / "generation_config.json", bos_token_id=1000, eos_token_id=[1002, 1000], pad_token_id=1003)
    assert verify_model(model, hash_files=False, use_cache=False).ok
    edit_json(model / "generation_config.json", eos_token_id=1010)  # < vocab_size, but no such token
    result = verify_model(model, hash_files=False, use_cache=False)
    assert result.failed["tiktoken.model"] == ["has no token id 1010, which generation_config.json names as "
                                               "eos_token_id: tokenizer from another revision?"]
    (model / "tiktoken.model").write_text("<html>error</html>\n")
    assert "not a tiktoken" in verify_model(model, hash_files=False, use_cache=False).failed["tiktoken.model"][0]


# --------------------------------------------------------------------------- GPU and vLLM

@pytest.mark.parametrize(("given", "capability"), [
    ("hopper", 90), ("H200", 90), ("NVIDIA H100-SXM5-80GB", 90), ("sm_90", 90), ("9.0", 90), ("90", 90),
    ("B200", 100), ("sm_100a", 100), ("10.0", 100), ("A100", 80), ("8.6", 86), ("L40S", 89), ("12.0", 120),
])
def test_gpu_architecture_names_and_capabilities(given, capability):
    assert parse_gpu_architecture(given) == capability


def test_unknown_gpu_architecture():
    with pytest.raises(KimiDeployError, match="not known"):
        parse_gpu_architecture("tpu-v5")


def test_k3_mxfp4_experts_need_marlin_on_hopper_only():
    hopper = quantization_requirements(K3_CONFIG, "H200")
    assert hopper["usable"] and hopper["required_serve_args"] == ["--moe-backend", "marlin"]
    assert hopper["quant_method"] == "compressed-tensors" and hopper["weight_formats"] == ["fp4"]
    blackwell = quantization_requirements(K3_CONFIG, "B200")
    assert blackwell["usable"] and blackwell["required_serve_args"] == []
    volta = quantization_requirements(K3_CONFIG, "V100")
    assert not volta["usable"]
    # What the installed vLLM says overrides: a build without the marlin backend cannot serve it.
    no_marlin = quantization_requirements(K3_CONFIG, "H200", {"quant_method_known": True,
                                                              "quant_min_capability": 70,
                                                              "moe_backends": ["auto", "triton"]})
    assert not no_marlin["usable"]
    too_old = quantization_requirements(K3_CONFIG, "T4", {"quant_method_known": True, "quant_min_capability": 80})
    assert not too_old["usable"] and any("needs compute capability >= 8.0" in n for n in too_old["notes"])


def test_unquantized_and_fp8_checkpoints():
    assert quantization_requirements({"architectures": ["X"]}, "A100")["required_serve_args"] == []
    fp8 = {"quantization_config": {"quant_method": "fp8"}}
    assert any("Marlin" in n for n in quantization_requirements(fp8, "A100")["notes"])
    assert quantization_requirements(fp8, "H100")["notes"] == []
    assert not quantization_requirements(fp8, "V100")["usable"]


def test_probe_refuses_a_python_that_is_not_there(tmp_path):
    with pytest.raises(KimiDeployError, match="not an executable file"):
        probe_vllm(tmp_path / "bin" / "python", ["LlamaForCausalLM"])


def _fake_venv(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A venv whose python answers the probe like vLLM would and counts how often it was asked."""
    venv = tmp_path / "venv"
    record = venv / "lib" / "python3.11" / "site-packages" / "vllm-0.32.0.dist-info" / "RECORD"
    record.parent.mkdir(parents=True)
    record.write_text("vllm/__init__.py,,\n")
    calls = tmp_path / "calls"
    python = venv / "bin" / "python"
    python.parent.mkdir()
    answer = json.dumps({"vllm_version": "0.32.0", "registered": {"LlamaForCausalLM": True}})
    python.write_text(f"#!/bin/sh\necho run >> '{calls}'\necho 'KIMI_VLLM_PROBE {answer}'\n")
    python.chmod(0o755)
    return python, record, calls


def test_probe_answer_is_kept_until_vllm_is_reinstalled(tmp_path):
    python, record, calls = _fake_venv(tmp_path)
    first = probe_vllm(python, ["LlamaForCausalLM"])
    assert first["registered"] == {"LlamaForCausalLM": True}
    assert probe_vllm(python, ["LlamaForCausalLM"]) == first
    assert calls.read_text().count("run") == 1  # the second answer came from the venv's cache
    probe_vllm(python, ["DeepseekV3ForCausalLM"])  # another question is asked
    assert calls.read_text().count("run") == 2
    record.write_text("vllm/__init__.py,,\nvllm/other.py,,\n")  # a reinstall rewrites RECORD
    probe_vllm(python, ["DeepseekV3ForCausalLM"])
    assert calls.read_text().count("run") == 3


def test_probe_in_check_mode_writes_no_cache(tmp_path):
    python, _record, calls = _fake_venv(tmp_path)
    probe_vllm(python, ["LlamaForCausalLM"], write_cache=False)
    probe_vllm(python, ["LlamaForCausalLM"], write_cache=False)
    assert calls.read_text().count("run") == 2
    assert not (python.parent.parent / PROBE_CACHE).exists()
