"""diagnose(): phase, cause, evidence and next step from vLLM logs.

Three sources of truth:
- the error catalog (40 real errors from public issues, with phase and fix; tests/fixtures/vllm-error-catalog.jsonl),
- logs captured from the real vLLM CPU build with each failure provoked for real (tests/fixtures/vllm-logs/),
- message texts from other vLLM versions and from the installed vLLM's source (written out below, with where
  each comes from), which the rules were not tuned on.
"""

from __future__ import annotations

import json

import pytest
from kimi_deploy.core.diagnose import RULES, _required_literals, deploy_failure_message, diagnose
from kimi_deploy.core.errors import KimiDeployError
from repo_paths import FIXTURES

CATALOG = [json.loads(line) for line in (FIXTURES / "vllm-error-catalog.jsonl").read_text().splitlines()]
LOGS = FIXTURES / "vllm-logs"

# The remedy words of each catalog entry's `fix`, read off the fix text: the diagnosis (cause + next
# step) must name them. Entries whose fix is not derivable from the error text alone get the words of
# what can be said from it (noted).
CATALOG_REMEDY_WORDS = {
    0: ["upgrade vllm", "architectures"],
    1: ["--trust-remote-code"],
    2: ["download", "sha256", "git-lfs"],
    3: ["upgrade vllm", "transformers"],
    4: ["blobfile"],
    5: ["upgrade vllm"],
    6: ["vllm_engine_ready_timeout_s", "timeoutstartsec"],
    7: ["drop --quantization"],
    8: ["ss -ltnp", "--port", "8000"],
    9: ["first error"],  # the fix: search upward for the first ERROR/Traceback
    10: ["vllm_engine_ready_timeout_s", "compile caches"],
    11: ["vllm_memory_profiler_estimate_cudagraphs=0", "gpu_memory_utilization"],
    12: ["lower max_model_len"],
    13: ["lower max_model_len", "--max-model-len auto"],
    14: ["--ipc=host", "--shm-size"],
    15: ["nccl_dmabuf_enable=0"],
    16: ["ray status", "gpu"],
    17: ["tensor_parallel_size that divides", "pipeline_parallel_size"],
    18: ["expert", "num_redundant_experts"],
    19: ["lower gpu_memory_utilization"],
    20: ["--enforce-eager", "gpu_memory_utilization", "max_num_seqs"],
    21: ["lower max_num_seqs"],
    22: ["--preemption-mode", "remove"],
    23: ["--disable-custom-all-reduce", "previous release"],
    24: ["parallel"],  # the fix is "use the recipe's strategies"; the message names a parallel size
    25: ["upgrade the driver"],
    26: ["upgrade the driver"],
    27: ["vllm_host_ip", "--master-addr", "nccl_socket_ifname", "gloo_socket_ifname"],
    28: ["prompt + max_tokens <= max_model_len", "400, not 500"],
    29: ["max_model_len"],  # the fix is about the message's wording; the numbers are in the cause
    30: ["cap max_tokens"],
    31: ["truncate", "raise max_model_len"],
    32: ["truncate", "raise max_model_len"],
    33: ["max_num_seqs", "gpu_memory_utilization", "num_preemptions"],
    34: ["engine died", "first error"],  # the custom all-reduce cause is not in the quoted lines
    35: ["first error", "restart"],
    36: ["all2all", "network"],
    37: ["max_model_len", "vllm_allow_long_max_model_len"],
    38: ["drop the field", "upgrade vllm"],
    39: ["/v1/models", "--served-model-name"],
}


def test_catalog_remedy_words_cover_every_entry():
    assert len(CATALOG) == 40
    assert set(CATALOG_REMEDY_WORDS) == set(range(len(CATALOG)))


@pytest.mark.parametrize("index", range(len(CATALOG)))
def test_catalog_entry_phase_and_remedy(index):
    entry = CATALOG[index]
    result = diagnose(entry["text"])
    assert result["phase"] == entry["phase"], (entry["text"], result)
    said = (result["cause"] + " " + result["next_step"]).lower()
    missing = [word for word in CATALOG_REMEDY_WORDS[index] if word not in said]
    assert not missing, (missing, result["cause"], result["next_step"])
    assert result["rule"] not in ("unclassified_error", "no_vllm_log")
    assert result["evidence"], "a diagnosis names the lines that decided it"


def test_catalog_parameter_changes_from_the_logs_own_numbers():
    # vLLM's own estimate (PR #16168) becomes the parameter change, as is.
    assert diagnose(CATALOG[13]["text"])["parameter_changes"] == {"max_model_len": 3861424}
    # Without the estimate: 1048576 tokens need 24.00 GiB, 9.97 GiB are there; KV grows linearly with
    # the context, so 1048576 * 9.97 / 24 = 435596.6, rounded down to a 16-token block = 435584.
    assert diagnose(CATALOG[12]["text"])["parameter_changes"] == {"max_model_len": 435584}
    # 40 heads, TP 6: the divisors of 40 up to 6 are 1, 2, 4, 5; GPU counts are powers of two -> 4.
    assert diagnose(CATALOG[17]["text"])["parameter_changes"] == {"tensor_parallel_size": 4}


# ----- logs of the real vLLM CPU build ----------------------------------------------------------

REAL_LOGS = {
    # fixture: (phase, rule)
    "port_in_use": ("startup", "port_in_use"),
    "kv_cache_too_small": ("startup", "kv_cache_too_small_for_max_model_len"),
    "missing_shard": ("load", "missing_weight_files"),
    "safetensors_corrupt_header": ("load", "corrupt_safetensors"),
    "safetensors_lfs_pointer": ("load", "corrupt_safetensors"),
    "safetensors_truncated": ("load", "corrupt_safetensors"),
    "trust_remote_code_missing": ("load", "trust_remote_code_required"),
    "trust_remote_code_given": ("none", "no_error_serving"),
    "unknown_architecture": ("load", "architecture_not_supported"),
    "tokenizer_vocab_larger_than_model": ("runtime", "index_out_of_range"),
    "tokenizer_json_truncated": ("load", "tokenizer_file_invalid"),
    "over_long_request": ("none", "http_400_responses"),
    "clean_shutdown_engine_dead_noise": ("none", "no_error_serving"),
}


def _log(name: str) -> str:
    return (LOGS / f"{name}.log").read_text()


def test_every_captured_log_has_an_expectation():
    assert {path.stem for path in LOGS.glob("*.log")} == set(REAL_LOGS)


@pytest.mark.parametrize("name", sorted(REAL_LOGS))
def test_real_log_phase_and_rule(name):
    result = diagnose(_log(name))
    assert (result["phase"], result["rule"]) == REAL_LOGS[name], result
    wrappers = ("Engine core initialization failed", "EngineCore failed to start", "WorkerProc failed to start")
    # The decisive evidence is the root cause, never one of the wrappers printed below it.
    assert not any(w in line for line in result["evidence"] for w in wrappers), result["evidence"]
    if result["first_error_line"]:
        assert not any(w in result["first_error_line"] for w in wrappers)


def test_real_kv_log_gives_vllms_estimate_as_the_change():
    # 1 MiB KV, 512 bytes/token (2 layers x K,V x 2 heads x 32 x bf16), 128-token CPU blocks: 16 blocks,
    # one held back as the null block -> 15 x 128 = 1920 tokens.
    result = diagnose(_log("kv_cache_too_small"))
    assert result["parameter_changes"] == {"max_model_len": 1920}
    # The current value comes from the log's own args line when no context is given ...
    assert "Lower max_model_len from 4096 to 1920" in result["next_step"]
    # ... and the CPU build's explicit KV size is the memory knob named, not gpu_memory_utilization.
    assert "--kv-cache-memory-bytes" in result["next_step"]
    assert "1048576 bytes" in result["next_step"]
    # Reversible parameters first: context before memory before hardware/quantization.
    step = result["next_step"]
    assert step.index("max_model_len") < step.index("--kv-cache-memory-bytes") < step.index("more GPUs")


def test_real_missing_shard_names_the_file_and_looks_past_two_wrappers():
    text = _log("missing_shard")
    assert "WorkerProc initialization failed" in text and "Engine core initialization failed" in text
    result = diagnose(text)
    assert "model-00002-of-00002.safetensors" in result["cause"]
    assert "Weight files referenced in index but missing" in result["first_error_line"]


def test_real_safetensors_damage_is_told_apart():
    assert "git-lfs pointer" in diagnose(_log("safetensors_lfs_pointer"))["cause"]
    assert "truncated" in diagnose(_log("safetensors_truncated"))["cause"]
    assert "not valid JSON" in diagnose(_log("safetensors_corrupt_header"))["cause"]


def test_real_port_in_use_names_the_port_from_the_args_line():
    result = diagnose(_log("port_in_use"))
    # vLLM 0.32 prints a bare "OSError: [Errno 98] Address already in use"; the port comes from its args.
    assert "Address already in use" in result["first_error_line"]
    assert "port 8201" in result["cause"] and "sport = :8201" in result["next_step"]


def test_real_unknown_architecture_reads_the_pydantic_wrapped_message():
    result = diagnose(_log("unknown_architecture"))
    assert "NoSuchModelForCausalLM" in result["cause"]
    assert result["evidence"][0].lstrip().startswith("Value error, Model architectures")


def test_real_tokenizer_larger_than_vocab_is_a_runtime_engine_death():
    result = diagnose(_log("tokenizer_vocab_larger_than_model"))
    assert "tokenizer" in result["cause"] and "vocab_size" in result["cause"]
    # The engine death (EngineDeadError, 500s) follows; the decisive line is the IndexError above.
    assert "IndexError: index out of range in self" in result["evidence"][-1]
    assert any("Starting vLLM server" in line for line in result["evidence"])


def test_real_over_long_request_uses_the_served_max_model_len():
    result = diagnose(_log("over_long_request"))
    assert "max_model_len (512)" in result["cause"]
    assert "HTTP 400" in result["cause"] and "healthy" in result["cause"]


def test_errors_after_a_requested_shutdown_are_not_a_failure():
    text = _log("clean_shutdown_engine_dead_noise")
    assert "EngineDeadError" in text and "trigger received signal=SIGTERM" in text
    result = diagnose(text)
    assert result["rule"] == "no_error_serving" and result["first_error_line"] is None


# ----- wrappers, runs, shutdown -------------------------------------------------------------------

V1_PREFIX = "(EngineCore_DP0 pid=42) ERROR 11-30 07:08:28 [core.py:1510] "
WRAPPER_TAIL = "\n".join([
    f"{V1_PREFIX}EngineCore failed to start.",
    "Traceback (most recent call last):",
    '  File "/v/vllm/v1/engine/utils.py", line 1431, in wait_for_engine_startup',
    "    raise RuntimeError(",
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
])
ARGS_LINE = ("(APIServer pid=7) INFO 11-30 07:07:17 [api_utils.py:286] non-default args: {'model': '/m', "
             "'max_model_len': 32768, 'gpu_memory_utilization': 0.92}")


def test_wrapper_is_looked_past_to_an_unknown_error_above_it():
    text = "\n".join([ARGS_LINE, f"{V1_PREFIX}Traceback (most recent call last):",
                      f'{V1_PREFIX}  File "/v/x.py", line 3, in f',
                      f"{V1_PREFIX}    frobnicate()",
                      f"{V1_PREFIX}ZorkError: the flux capacitor is misaligned", WRAPPER_TAIL])
    result = diagnose(text)
    assert result["rule"] == "unclassified_error"
    assert result["first_error_line"].endswith("ZorkError: the flux capacitor is misaligned")
    assert "ZorkError: the flux capacitor is misaligned" in result["next_step"]
    assert result["phase"] == "load"  # no weights were loaded before it


def test_wrapper_alone_says_the_cause_is_above_the_lines_read():
    result = diagnose(WRAPPER_TAIL)
    assert (result["phase"], result["rule"]) == ("startup", "engine_startup_failed")
    assert "raise `lines`" in result["next_step"]


def test_engine_dead_after_serving_is_runtime_and_points_above():
    text = "\n".join([ARGS_LINE, "INFO:     Application startup complete.",
                      "(APIServer pid=7) ERROR 11-30 07:11:02 [async_llm.py:906] vllm.v1.engine.exceptions."
                      "EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.",
                      'INFO:     127.0.0.1:1 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error'])
    result = diagnose(text)
    assert (result["phase"], result["rule"]) == ("runtime", "engine_dead")
    assert any("Application startup complete" in line for line in result["evidence"])


def test_startup_error_class_becomes_runtime_after_serving():
    text = "\n".join([ARGS_LINE, "INFO 11-30 07:06:36 [default_loader.py:501] Loading weights took 9.01 seconds",
                      "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)",
                      "(Worker pid=9) ERROR 11-30 09:00:00 [multiproc_executor.py:1063] torch.OutOfMemoryError: "
                      "CUDA out of memory. Tried to allocate 2.00 GiB."])
    result = diagnose(text)
    assert (result["phase"], result["rule"]) == ("runtime", "gpu_out_of_memory")
    assert "while serving" in result["cause"] and "max_num_seqs" in result["next_step"]


def test_old_uvicorn_bind_failure_after_startup_complete_stays_startup():
    # Before vLLM 0.7 uvicorn finished the app's startup and only then bound the port.
    text = "\n".join(["INFO:     Started server process [1]", "INFO:     Waiting for application startup.",
                      "INFO:     Application startup complete.",
                      "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address "
                      "already in use", "INFO:     Waiting for application shutdown."])
    result = diagnose(text)
    assert (result["phase"], result["rule"]) == ("startup", "port_in_use")


def test_oom_position_decides_load_versus_startup():
    oom = "(Worker pid=9) ERROR 11-30 09:00:00 [w.py:1] torch.OutOfMemoryError: CUDA out of memory."
    loading = diagnose("\n".join([ARGS_LINE, "INFO 11-30 07:06:36 [m.py:68] Starting to load model /m...", oom]))
    assert loading["phase"] == "load" and "tensor_parallel_size" in loading["next_step"]
    profiling = diagnose("\n".join([ARGS_LINE, "INFO 11-30 07:06:36 [m.py:9] Model loading took 60.1 GiB memory",
                                    oom]))
    assert profiling["phase"] == "startup"
    assert "lower gpu_memory_utilization from 0.92 to 0.87" in profiling["next_step"].lower()


def test_latest_start_decides_in_a_journal_with_restarts():
    failed = "\n".join(["Started kimi-vllm.service - Kimi vLLM.", ARGS_LINE, WRAPPER_TAIL.replace(
        "EngineCore failed to start.", "ValueError: No available memory for the cache blocks.")])
    serving = "\n".join(["Started kimi-vllm.service - Kimi vLLM.", ARGS_LINE,
                         "INFO:     Application startup complete."])
    still_loading = "\n".join(["Started kimi-vllm.service - Kimi vLLM.", ARGS_LINE,
                               "INFO 11-30 07:06:36 [m.py:68] Starting to load model /m..."])
    assert diagnose(failed + "\n" + serving)["rule"] == "no_error_serving"
    assert diagnose(serving + "\n" + failed)["rule"] == "no_kv_cache_memory"
    # A restart still loading (no error yet) defers to the failure of the start before it.
    assert diagnose(failed + "\n" + still_loading)["rule"] == "no_kv_cache_memory"
    assert diagnose(still_loading)["rule"] == "no_error_not_serving"
    assert diagnose(still_loading)["phase"] == "load"


def test_sigterm_during_load_is_not_a_failure():
    text = "\n".join([ARGS_LINE, "(EngineCore pid=3) INFO 11-30 07:11:02 [core.py:1454] [shutdown] EngineCore: "
                                 "trigger received signal=SIGTERM",
                      "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}"])
    result = diagnose(text)
    assert result["rule"] == "no_error_not_serving" and "SIGTERM" in result["next_step"]


# ----- parameters --------------------------------------------------------------------------------

KV_MESSAGE = ("ValueError: To serve at least one request with the model's max seq len (32768), (4.00 GiB KV cache "
              "is needed, which is larger than the available KV cache memory (3.56 GiB). Based on the available "
              "memory, the estimated maximum model length is 29184. Try increasing `gpu_memory_utilization` or "
              "decreasing `max_model_len` when initializing the engine.")


def test_context_makes_the_next_step_concrete():
    result = diagnose(KV_MESSAGE, context={"max_model_len": 32768, "gpu_memory_utilization": 0.9})
    assert result["parameter_changes"] == {"max_model_len": 29184}
    assert "Lower max_model_len from 32768 to 29184" in result["next_step"]
    assert "raise gpu_memory_utilization from 0.9 to 0.95" in result["next_step"]


def test_context_wins_over_the_logs_args_and_accepts_numeric_strings():
    text = ARGS_LINE + "\n" + WRAPPER_TAIL.replace("EngineCore failed to start.",
                                                   "ValueError: No available memory for the cache blocks.")
    # The log's args line says 0.92; a raise stops at 0.95, which leaves headroom for non-torch memory.
    assert "raise gpu_memory_utilization from 0.92 to 0.95" in diagnose(text)["next_step"].lower()
    assert "from 0.8 to 0.85" in diagnose(text, context={"gpu_memory_utilization": "0.8"})["next_step"]


@pytest.mark.parametrize("context", [{"max_model_len": "lots"}, {"max_model_len": 1.5}, {"port": True},
                                     {"gpu_memory_utilization": -0.5}, ["max_model_len", 4096]])
def test_bad_context_is_refused_with_what_to_pass(context):
    with pytest.raises(KimiDeployError, match="context"):
        diagnose(KV_MESSAGE, context=context)


def test_log_text_must_be_text():
    with pytest.raises(KimiDeployError, match="must be text"):
        diagnose(b"bytes")


def test_v0_kv_message_gives_the_token_count():
    text = ("ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be "
            "stored in KV cache (21056). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when "
            "initializing the engine.")
    result = diagnose(text, context={"max_model_len": 32768})
    assert result["parameter_changes"] == {"max_model_len": 21056}
    assert result["phase"] == "startup"


def test_v0_namespace_args_are_read():
    text = ("INFO 08-21 03:42:51 api_server.py:401] args: Namespace(model_tag='m', host=None, port=8000, "
            "max_model_len=16384, gpu_memory_utilization=0.85, tensor_parallel_size=3)\n"
            "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use")
    result = diagnose(text)
    assert result["rule"] == "port_in_use" and "port 8000" in result["cause"]


# ----- wordings the rules were not tuned on ------------------------------------------------------

OTHER_WORDINGS = [
    # (text, phase, rule, source)
    ("User-specified max_model_len (8192) is greater than the derived max_model_len (max_position_embeddings=4096 "
     "or model_max_length=None in model's config.json).", "load", "max_model_len_over_model_limit",
     "vllm 0.32 config/model.py"),
    ("ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 80. "
     "Current capability: 75.", "load", "quantization_unsupported_on_gpu", "vllm 0.32 config/vllm.py"),
    ("ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU "
     "has compute capability 7.5. You can use float16 instead by explicitly setting the `dtype` flag in CLI, for "
     "example: --dtype=half.", "load", "dtype_unsupported_on_gpu", "vllm 0.32 platforms/cuda.py"),
    ("ValueError: Available memory on node 0 (8.54/10.34 GiB) on startup is less than desired CPU memory "
     "utilization (0.92, 9.51 GiB).", "startup", "cpu_memory_insufficient", "reference/vllm/cpu-build.md"),
    ("pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n  Value error, "
     "--mamba-block-size can only be set with --enable-prefix-caching", "load", "config_validation",
     "reference/vllm/cpu-build.md (KimiLinear on CPU)"),
    ("(Worker pid=3) ERROR 11-30 07:13:49 [multiproc_executor.py:953] ValueError: Head dimension 96 is not "
     "supported by MLA.", "load", "attention_backend_unsupported", "reference/vllm/cpu-build.md"),
    ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 MiB. GPU 6 has a total capacity of "
     "44.53 GiB of which 448.00 KiB is free.", "startup", "gpu_out_of_memory", "vllm issue #15598"),
    ("ValueError: Tokenizer class TokenizersBackend does not exist or is not currently imported.", "load",
     "tokenizer_load_failed", "LlamaFactory issue #10310 (transformers too old for the tokenizer_config)"),
    ("Exception: data did not match any variant of untagged enum ModelWrapper at line 757 column 3", "load",
     "tokenizer_load_failed", "tokenizers older than the tokenizer.json format"),
    ("ValueError: Invalid repository ID or local directory specified: 'neuralmagic/Meta-Llama-3-8B-Instruct-FP8'."
     "\nPlease verify the following requirements:", "load", "hub_access_failed", "vllm issue #13510"),
    ("huggingface_hub.errors.LocalEntryNotFoundError: Cannot find the requested files in the disk cache and "
     "outgoing traffic has been disabled.", "load", "hub_access_failed", "huggingface_hub offline mode"),
    # host RAM runs out while the weights are read (the corpus's taxonomy: host OOM is a load-phase family)
    ("kimi-vllm.service: A process of this unit has been killed by the OOM killer.", "load",
     "host_out_of_memory", "systemd"),
    ("vllm serve: error: unrecognized arguments: --max-modle-len 4096", "load", "cli_argument_error", "argparse"),
    ("RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)", "startup",
     "nccl_error", "torch.distributed"),
    ("ModuleNotFoundError: No module named 'tiktoken'", "load", "python_dependency_missing", "remote-code tokenizers"),
    ("ValueError: Token id 151700 is out of vocabulary", "runtime", "request_token_out_of_vocabulary",
     "vllm renderers/base.py"),
    ("RuntimeError: CUDA error: no kernel image is available for execution on the device", "startup",
     "gpu_arch_not_in_build", "a torch build without the GPU's architecture"),
    ("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use "
     "the 'spawn' start method", "load", "worker_start_method", "vllm model_executor/models/registry.py"),
    ("ValueError: max_num_seqs (1024) exceeds available Mamba cache blocks (612). Each decode sequence requires one "
     "Mamba cache block, so CUDA graph capture cannot proceed.", "startup", "mamba_cache_blocks_below_max_num_seqs",
     "vllm 0.32 config/compilation.py (hybrid models such as Kimi Linear / K3)"),
    ("ValueError: max_num_batched_tokens (2048) is smaller than max_model_len (4096). This effectively limits the "
     "maximum sequence length to max_num_batched_tokens", "load", "batched_tokens_below_max_model_len",
     "vllm 0.32 config/scheduler.py"),
    ("2026-07-25 14:36:08.362 [Error] (WrappedServer) vllm-server failed to start within timeout", "load",
     "timeout_waiting_for_engine", "a wrapper's readiness wait running out (Lemonade's server)"),
    ("rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory for GPU "
     "arch : gfx1031", "startup", "hip_arch_not_in_build", "rocBLAS on a gfx target its build lacks"),
    ("rocblaslt error: Could not load /opt/venv/lib/python3.11/site-packages/torch/lib/hipblaslt/library/"
     "TensileLibrary_lazy_gfx942.dat", "startup", "rocm_math_library_unreadable",
     "hipBLASLt failing to read its own target's file (pytorch issue 137695)"),
]


@pytest.mark.parametrize(("text", "phase", "rule", "source"), OTHER_WORDINGS)
def test_other_wordings(text, phase, rule, source):
    result = diagnose(text)
    assert (result["phase"], result["rule"]) == (phase, rule), (source, result)


def test_numbers_in_the_message_become_parameter_changes():
    assert diagnose(OTHER_WORDINGS[0][0])["parameter_changes"] == {"max_model_len": 4096}
    assert diagnose(OTHER_WORDINGS[2][0])["parameter_changes"] == {"dtype": "half"}
    mamba = next(text for text, *_unused in OTHER_WORDINGS if "Mamba" in text)
    assert diagnose(mamba)["parameter_changes"] == {"max_num_seqs": 612}


def test_systemd_start_timeout_after_weights_is_startup():
    text = "\n".join([ARGS_LINE, "INFO 11-30 07:06:36 [m.py:9] Loading weights took 812.55 seconds",
                      "kimi-vllm.service: start operation timed out. Terminating.",
                      "kimi-vllm.service: Failed with result 'timeout'."])
    result = diagnose(text)
    assert (result["phase"], result["rule"]) == ("startup", "timeout_waiting_for_engine")
    assert "TimeoutStartSec" in result["next_step"]


ENGINE_WAIT = ("(APIServer pid=7) DEBUG 09-02 17:29:{:02d} [utils.py:777] Waiting for 1 local, 0 remote core engine "
               "proc(s) to start.")


def test_a_start_that_ends_in_one_wait_logged_again_and_again_is_stuck():
    result = diagnose("\n".join(ENGINE_WAIT.format(s) for s in (6, 16, 26)))
    assert (result["phase"], result["rule"], result["cause_class"]) == ("load", "stuck_wait", "timeout")
    assert "3 times over 20 s" in result["cause"] and "py-spy dump" in result["next_step"]
    # the phase is the last milestone's
    weights_done = "INFO 09-02 17:29:01 [loader.py:9] Loading weights took 30.10 seconds"
    result = diagnose("\n".join([ARGS_LINE, weights_done, ENGINE_WAIT.format(6), ENGINE_WAIT.format(16)]))
    assert (result["phase"], result["rule"]) == ("startup", "stuck_wait")


@pytest.mark.parametrize("lines", [
    [ENGINE_WAIT.format(6)],  # waited once: still starting
    [ENGINE_WAIT.format(6), ENGINE_WAIT.format(16), "INFO 09-02 17:29:20 [core.py:9] Loading weights took 9.1 seconds"],
    # a wrapper polling the server, within its attempts: vLLM's own lines are what say whether it is stuck
    ["INFO 2024-08-17 23:29:34,833 instructlab.model.backends.backends:466: Waiting for the vLLM server to start at "
     f"http://127.0.0.1:43911/v1, this might take a moment... Attempt: {n}/100" for n in (9, 10)],
], ids=["once", "progress-after", "a-wrappers-polls"])
def test_a_wait_that_is_not_repeated_at_the_end_by_vllm_is_not_a_stuck_start(lines):
    assert diagnose("\n".join([ARGS_LINE, *lines]))["rule"] != "stuck_wait"


# ----- line prefixes and quiet lines -------------------------------------------------------------

@pytest.mark.parametrize("prefix", [
    "",
    "Nov 30 07:14:30 gpu-node-1 kimi-vllm[4242]: ",          # journalctl default output
    "vllm-1  | ",                                           # docker compose
    "[rank0]: ",
    "\x1b[0;36m(APIServer pid=3604781)\x1b[0;0m ",         # colour codes
    "^[[0;36m(APIServer pid=3604781)^[[0;0m ERROR 12-28 04:44:45 [utils.py:253] ",  # copied from a terminal
])
def test_prefixes_are_stripped(prefix):
    result = diagnose(prefix + "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge")
    assert result["rule"] == "corrupt_safetensors" and result["phase"] == "load"


def test_a_log_as_rsyslog_stores_it_reads_as_the_log_itself():
    # rsyslog (and services that forward through it) writes control characters as '#' and their octal code: the
    # colour codes around a process tag become "#033[1;36m", a carriage return "#015" (vllm#20855, vllm#24004).
    plain = [
        "(VllmWorkerProcess pid=2731824) INFO 10-18 16:04:07 multiproc_worker_utils.py:215] Worker ready; awaiting "
        "tasks",
        "(VllmWorkerProcess pid=2731824) ERROR 10-18 16:04:07 multiproc_worker_utils.py:229] Exception in worker "
        "VllmWorkerProcess while processing method init_device.",
    ]
    stored = [line.replace("(VllmWorkerProcess pid=2731824)", "#033[1;36m(VllmWorkerProcess pid=2731824)#033[0;0m")
              + "#015" for line in plain]
    expected, result = diagnose("\n".join(plain)), diagnose("\n".join(stored))
    assert expected["phase"] == "load" and expected["cause_class"] != "unknown"
    assert [result[key] for key in ("phase", "rule", "cause_class")] == [
        expected[key] for key in ("phase", "rule", "cause_class")]


def test_a_record_printed_on_a_progress_bars_line_reads_as_on_its_own():
    # tqdm leaves the cursor at the bar's end, so the next record lands on the bar's line (vllm#19825).
    start = "INFO 07-09 03:51:30 [llm_engine.py:1] Initializing an LLM engine (v0.6.3) with config: model='m'"
    progress = "Processed prompts:   0%|          | 0/100 [00:00<?, ?it/s]"
    warning = ("WARNING 07-09 03:51:34 [scheduler.py:1] Sequence group 0 is preempted by PreemptionMode.RECOMPUTE "
               "mode because there is not enough KV cache space.")
    apart, glued = diagnose("\n".join([start, progress, warning])), diagnose("\n".join([start, progress + warning]))
    assert [glued[key] for key in ("phase", "rule", "cause_class")] == [
        apart[key] for key in ("phase", "rule", "cause_class")] == ["runtime", "warnings_only", "risk_only"]


def test_hints_in_info_and_warning_lines_are_not_errors():
    text = "\n".join([
        ARGS_LINE,
        "(APIServer pid=7) WARNING 11-30 07:07:17 [system_utils.py:255] Found ulimit of 20000 and failed to "
        "automatically increase with error current limit exceeds maximum limit. This can cause fd limit errors like "
        "`OSError: [Errno 24] Too many open files`. Consider increasing with ulimit -n",
        "INFO 02-03 03:43:49 model_runner.py:629] CUDA graphs can take additional 1~3 GiB memory per GPU. If you are "
        "running out of memory, consider decreasing `gpu_memory_utilization` or enforcing eager mode.",
        "INFO:     Application startup complete.",
    ])
    result = diagnose(text)
    assert result["rule"] == "no_error_serving" and result["first_error_line"] is None


def test_errors_a_served_start_survived_are_not_its_failure():
    # vLLM logs a failed config parse as ERROR and retries; this start then served.
    text = "\n".join([
        ARGS_LINE,
        "/usr/lib/python3/dist-packages/vllm/usage/usage_lib.py:19: RuntimeWarning: Failed to read commit hash:",
        "(APIServer pid=7) ERROR 11-30 07:30:11 [repo_utils.py:126] Error parsing config for /m: The repository /m "
        "contains custom code which must be executed to correctly load the model., retrying 1 of 2",
        "INFO:     Application startup complete.",
        'INFO:     127.0.0.1:1 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
    ])
    result = diagnose(text)
    assert result["rule"] == "no_error_serving" and result["first_error_line"] is None


# ----- unknown -------------------------------------------------------------------------------------

def test_text_without_vllm_lines_is_unknown_and_says_where_to_look():
    result = diagnose("the quick brown fox\njumps over the lazy dog\n")
    assert (result["phase"], result["rule"]) == ("unknown", "no_vllm_log")
    assert "first error line" in result["next_step"] and "`lines`" in result["next_step"]
    assert diagnose("")["phase"] == "unknown"
    assert "no vLLM log lines" in result["cause"]
    # vllm#13655: vLLM's own records, but only a tensor's rows: said as such, not as "no vLLM log lines"
    rows = diagnose("ERROR 03-20 04:18:14 async_llm_engine.py:68]          [  0,   0,   0],\n"
                    "ERROR 03-20 04:18:14 async_llm_engine.py:68]          [ 10,  10,  10],")
    assert rows["rule"] == "no_vllm_log" and "lines of vLLM's log" in rows["cause"]
    # vllm#23814: the rows of V1's crash dump (its own logger) are a step that failed while serving
    dump = diagnose("ERROR 08-29 01:18:42 [dump_input.py:76]        [      -1,       -1,       -1, ...,       -1],\n"
                    "ERROR 08-29 01:18:42 [dump_input.py:76]       shape=(5, 4008), dtype=int32)")
    assert (dump["phase"], dump["rule"]) == ("runtime", "engine_dead")


def test_unknown_error_is_unknown_and_quotes_the_first_error_line():
    result = diagnose("some preamble\nZorkError: the flux capacitor is misaligned\nmore text")
    assert (result["phase"], result["rule"]) == ("unknown", "unclassified_error")
    assert result["first_error_line"] == "ZorkError: the flux capacitor is misaligned"
    assert "Read the first error line" in result["next_step"]
    assert "ZorkError: the flux capacitor is misaligned" in result["next_step"]


TRITON_FRAMES = [
    "Traceback (most recent call last):",
    '  File "/venv/lib/python3.9/site-packages/triton/compiler/compiler.py", line 282, in compile',
    "    next_module = compile_ir(module, metadata)",
    '  File "/venv/lib/python3.9/site-packages/triton/backends/nvidia/compiler.py", line 216, in make_llir',
    "    pm.run(mod)",
]


def test_a_generic_python_exception_takes_its_cause_from_the_frames_it_was_raised_in():
    result = diagnose("\n".join([*TRITON_FRAMES, "IndexError: map::at"]))
    assert (result["rule"], result["cause_class"]) == ("traceback_frames", "compile_error")
    # the same exception type raised in frames that name nothing stays an unknown error, quoted
    plain = diagnose("\n".join(["Traceback (most recent call last):", '  File "/app/x.py", line 3, in f',
                                "    g()", "IndexError: map::at"]))
    assert (plain["rule"], plain["cause_class"]) == ("unclassified_error", "unknown")
    assert "IndexError: map::at" in plain["next_step"]


def test_unknown_error_after_serving_is_runtime():
    text = "\n".join([ARGS_LINE, "INFO:     Application startup complete.",
                      "(APIServer pid=7) ERROR 11-30 09:00:00 [x.py:1] ZorkError: the flux capacitor is misaligned"])
    result = diagnose(text)
    assert (result["phase"], result["rule"]) == ("runtime", "unclassified_error")


def test_result_shape():
    result = diagnose(KV_MESSAGE)
    assert set(result) == {"phase", "cause", "evidence", "next_step", "parameter_changes", "rule",
                           "first_error_line", "cause_class", "healthy", "risks", "client_errors"}
    assert result["phase"] in ("load", "startup", "runtime", "unknown", "none")
    assert result["healthy"] is False and result["cause_class"] == "kv_cache_insufficient"
    assert result["next_step"].startswith("1. ")


# -- the message a failed deploy fails with (report_failure.yml; its branches were Jinja ternaries) -----

_FAILURE = {"release_id": "r2", "host": "gpu-1", "failed_task": "Wait until vLLM serves the model",
            "error": "vLLM did not become healthy", "root": "/opt/kimi"}
_OOM = {"phase": "startup", "cause": "The KV cache does not fit.", "next_step": "1. Lower max_model_len."}


@pytest.mark.parametrize(("diagnosis", "restored", "says", "not_said"), [
    # a diagnosis naming a phase, the last accepted release put back
    (_OOM, {"serving": "r1"}, ["Diagnosis: startup phase, The KV cache does not fit. Next step: 1. Lower "
                               "max_model_len.", "Release r1 is serving again."], ["No release"]),
    # no phase named (unknown, none, nothing diagnosed): no diagnosis sentence
    ({"phase": "unknown", "cause": "?"}, {"serving": "r1"}, ["Release r1 is serving again."], ["Diagnosis"]),
    ({"phase": "none"}, {"serving": "r1"}, [], ["Diagnosis"]),
    ({}, {"serving": "r1"}, [], ["Diagnosis"]),
    # restored, but no release was ever accepted (also a restore that was skipped: serving absent)
    ({}, {"serving": ""}, ["No release was ever accepted; the service is stopped."], ["serving again"]),
    ({}, {"skipped": True}, ["No release was ever accepted; the service is stopped."], ["serving again"]),
    # accepted releases exist but are laid out for a replica of another size: none can start here
    ({}, {"serving": None, "passed_over": ["r1 (2 nodes)"]},
     ["No accepted release fits this replica (laid out for another number of nodes: r1 (2 nodes)); the service "
      "is stopped.", "run rollback.yml"], ["serving again", "No release was ever"]),
    # failed before current moved: no restore ran
    ({}, None, ["current was not moved; nothing serving changed."], ["serving again", "No release"]),
])
def test_deploy_failure_message(diagnosis, restored, says, not_said):
    message = deploy_failure_message(**_FAILURE, diagnosis=diagnosis, restored=restored)
    assert message.startswith('Release r2 failed on gpu-1 at "Wait until vLLM serves the model": '
                              "vLLM did not become healthy. ")
    assert message.endswith("The failed release stays in /opt/kimi/releases/r2 for inspection.")
    assert all(s in message for s in says), message
    assert not any(s in message for s in not_said), message


@pytest.mark.parametrize(("pattern", "literals"), [
    ("Engine core initialization failed", ("engine core initialization failed",)),
    # the longest run the match cannot do without; \b matches no character, so the run goes on across it
    (r"(?:CUDA )?out of memory\b\. Tried to allocate", ("out of memory. tried to allocate",)),
    # an alternation: one word of each branch; ignore-case patterns compare in lower case too
    (r"(?i)address already in use|Errno 98", ("address already in use", "errno 98")),
    # a branch with no fixed word (a class, an optional group) leaves nothing required
    (r"[A-Z]+Error|(?:foo)?", ()),
    # a group repeated at least once is required; one that may be absent is not
    (r"(?:NCCL )+error|(?:maybe )*[xy]", ()),
    (r"(?:NCCL )+[a-z]|(?:maybe )*xy", ("nccl ", "xy")),
    # of runs as long as each other, the first
    (r"(?:NCCL )+error: (?:remote )?timeout", ("error: ",)),
])
def test_required_literals_are_what_every_match_holds(pattern, literals):
    assert _required_literals(pattern) == literals


def test_no_rule_skips_a_line_its_pattern_matches():
    """_matches searches a rule only on lines holding one of its literals: check that on a sample of real lines
    (every third corpus log) no line a rule's pattern matches lacks them."""
    corpus = sorted((FIXTURES / "vllm-failure-corpus").glob("*.jsonl"))
    entries = [json.loads(line) for path in corpus for line in path.read_text().splitlines() if line.strip()]
    lines = {line for entry in entries[::3] for line in entry["log"].splitlines() if line.isascii()}
    assert len(lines) > 5000 and all(rule.literals for rule in RULES)
    missed = [(rule.id, line) for rule in RULES for line in lines
              if rule.pattern.search(line) and not any(literal in line.lower() for literal in rule.literals)]
    assert not missed, missed[:5]
