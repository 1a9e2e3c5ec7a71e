"""model_forms and the form-check fixtures against the pinned vLLM itself (the CPU build's venv)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from kimi_deploy.core.model_forms import derive_forms

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "model-forms"
KIMI_MEDIA = {"patch_size": 14, "merge_kernel_size": 2, "in_patch_limit": 1024, "patch_limit_on_one_side": 64,
              "fixed_output_tokens": None}

_VLLM_WORST_CASE = """
import json, sys
from vllm.models.kimi_k3.common.mm_preprocess import KimiK3ProcessingInfo, navit_resize_image
out = []
for cfg in json.loads(sys.argv[1]):
    args = (cfg["patch_size"], cfg["merge_kernel_size"], cfg["in_patch_limit"], cfg["patch_limit_on_one_side"], None)
    size = KimiK3ProcessingInfo.get_max_image_size(*args)
    sizes = [size] + [type(size)(width=w, height=h) for w, h in cfg["probes"]]
    out.append([[s.width, s.height, navit_resize_image(s.width, s.height, *args)["num_tokens"]] for s in sizes])
print(json.dumps(out))
"""


def test_worst_case_and_per_image_tokens_match_the_pinned_vllm(vllm_venv):
    """The numbers vLLM's own K3 profiling and prompt-expansion code computes, for several media configs."""
    probes = [[64, 64], [224, 224], [1000, 700], [20000, 80], [1, 1]]
    configs = [dict(KIMI_MEDIA, probes=probes),
               dict(KIMI_MEDIA, in_patch_limit=256, patch_limit_on_one_side=32, probes=probes),
               dict(KIMI_MEDIA, in_patch_limit=4096, patch_limit_on_one_side=128, probes=probes)]
    run = subprocess.run([str(vllm_venv / "bin" / "python"), "-c", _VLLM_WORST_CASE, json.dumps(configs)],
                         capture_output=True, text=True, timeout=300, check=True)
    expected = json.loads(run.stdout.strip().splitlines()[-1])
    for media, (worst, *sized) in zip(configs, expected, strict=True):
        image = derive_forms({"vision_config": {}}, preprocessor={"media_proc_cfg": media}).image
        assert [image.max_width, image.max_height, image.max_tokens_per_image] == worst
        for width, height, tokens in sized:
            assert image.tokens_for_image(width, height) == tokens, (media, width, height)


def test_fixtures_are_what_the_pinned_vllm_parsers_produce(vllm_venv, tmp_path):
    subprocess.run([str(vllm_venv / "bin" / "python"), str(REPO / "tools" / "record_form_fixtures.py"),
                    "--out", str(tmp_path)], check=True, capture_output=True, timeout=300)
    recorded = sorted(p.name for p in tmp_path.glob("*.json"))
    assert recorded == sorted(p.name for p in FIXTURES.glob("*.json") if not p.name.startswith("tiny-"))
    for name in recorded:
        assert json.loads((tmp_path / name).read_text()) == json.loads((FIXTURES / name).read_text()), name
