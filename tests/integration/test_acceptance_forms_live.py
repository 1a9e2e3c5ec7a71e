"""The acceptance's form checks against the real vLLM CPU build serving the tiny K2.5-layout vision model.

The plan comes from the planner (the model's files and safetensors headers, the declared input forms); the server
is started with the plan's argv on the model's own weights (two shards and their index, as a deploy fetches them).
A release that serves what its users send (text, images, tools) passes the image, tools, reasoning and
structured-output checks; the same model planned without images (``--language-model-only``) while its users
send images fails ``image_input`` by name. Only the form checks run here (the rest of the suite has its own live
test): two vLLM starts, about two minutes each on two shared cores.
"""

from __future__ import annotations

import asyncio
import time

from kimi_deploy.core.acceptance import CHECKS_BY_NAME, AcceptanceConfig
from kimi_deploy.core.acceptance_forms import FORM_CHECKS
from kimi_deploy.core.model_forms import forms_from_dir
from kimi_deploy.core.model_profile import load_profile_from_path
from kimi_deploy.core.sizing import BusinessNeed, PlanOptions, plan_deployment
from kimi_deploy.core.tensor_sharding import WeightInventory, records_from_safetensors_dir
from kimi_deploy.io.acceptance_client import AcceptanceRunner
from kimi_deploy.io.acceptance_http import AcceptanceHttp, open_client
from vllm_server import VllmServer

PORT = 8321
MAX_MODEL_LEN = 2048
USERS_SEND = ["text", "image", "tools"]
CPU_NODE = {"name": "localhost", "gpus": [], "memory_total_mib": 16_000, "cpu_count": 2, "cpu_flags": []}


def plan_for(model, input_forms):
    profile = load_profile_from_path(model)
    # Planned from its safetensors headers, as a deploy plans it.
    return plan_deployment(profile, WeightInventory.from_records(records_from_safetensors_dir(model), profile),
                           [CPU_NODE],
                           BusinessNeed(max_model_len=MAX_MODEL_LEN, concurrency=2),
                           PlanOptions(platform="cpu", vllm_version="0.32.0+cpu", input_forms=tuple(input_forms),
                                       images_per_prompt=1), forms_from_dir(model))


def form_checks(url, plan, input_forms):
    """Run health and the form checks only (in catalogue order), as the suite runs them."""
    cfg = AcceptanceConfig(served_model_name="tiny", max_model_len=MAX_MODEL_LEN, max_output_tokens=16,
                           concurrency=1, base_url=url, expect_api_key=False, profile="quick",
                           plan=plan, input_forms=list(input_forms))
    runner = AcceptanceRunner(cfg)

    async def run():
        async with open_client(cfg, None) as http_client:
            runner.http = AcceptanceHttp(http_client, cfg)
            for name in ("health", *FORM_CHECKS):
                await runner._run_check(CHECKS_BY_NAME[name])  # the form checks alone

    asyncio.run(run())
    return runner.results


def serve(model, plan, log):
    """The plan's argv on the model's own weights (no --load-format dummy)."""
    return VllmServer(model, port=PORT, args=plan["serve_args"], log_path=log)


def test_the_tiny_vision_model_passes_its_forms_and_fails_images_when_vision_is_off(
        tiny_models, vllm_venv, tmp_path):
    model = tiny_models("kimi_k25_vl", shards=2)
    assert (model / "model.safetensors.index.json").is_file()
    good = plan_for(model, USERS_SEND)
    assert good["fits"], good["reasons"]
    assert "--limit-mm-per-prompt" in good["serve_args"] and "--tool-call-parser" in good["serve_args"]
    assert "--allowed-media-domains" in good["serve_args"]  # no hosts listed: every image URL refused
    started = time.monotonic()
    with serve(model, good, tmp_path / "vllm-good.log") as srv:
        srv.wait_healthy(timeout=420)
        boot_s = time.monotonic() - started
        assert "Loading safetensors checkpoint shards: 100% Completed | 2/2" in srv.log_text()
        results = form_checks(srv.url, good, USERS_SEND)
    status = {n: (r.status, r.detail) for n, r in results.items()}
    for name in FORM_CHECKS:
        assert status[name][0] == "passed", (name, status[name], srv.log_tail())
    image = results["image_input"].observed
    assert image["prompt_tokens"]["image"] - image["prompt_tokens"]["text"] >= image["image_tokens_computed"]
    refused = results["image_url_refused"].observed
    assert 400 <= refused["status"] < 500 and refused["healthy_after"], refused
    long = results["image_long_input"].observed
    assert long["usage"] == {"prompt_tokens": MAX_MODEL_LEN - 16, "completion_tokens": 16}, long
    assert long["usage"]["prompt_tokens"] - long["text_tokens"] >= long["image_tokens_computed"]
    print(f"\nimage URL refused: {refused['status']} {refused['message']}; long input with an image: {long}")
    print(f"\nvision release: healthy after {boot_s:.0f} s; check latency (ms): "
          + ", ".join(f"{n} {results[n].duration_s * 1000:.0f}" for n in FORM_CHECKS))

    # The same model planned without images: the release users send images to cannot serve them.
    text_only = plan_for(model, ["text", "tools"])
    assert "--language-model-only" in text_only["serve_args"]
    started = time.monotonic()
    with serve(model, text_only, tmp_path / "vllm-lmo.log") as srv:
        srv.wait_healthy(timeout=420)
        boot_s = time.monotonic() - started
        results = form_checks(srv.url, text_only, USERS_SEND)
    assert results["image_input"].status == "failed", results["image_input"].detail
    assert "--language-model-only" in results["image_input"].detail
    assert results["tools_call"].status == "passed" and results["structured_output"].status == "passed"
    print(f"language-model-only release: healthy after {boot_s:.0f} s; image_input failed: "
          f"{results['image_input'].detail}")
