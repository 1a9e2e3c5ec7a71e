#!/usr/bin/env python
"""Record which checkpoint tensors the pinned vLLM loads for a model, by loading it for real.

    <vllm venv>/bin/python tools/record_vllm_weight_names.py --model DIR \\
        --out tests/fixtures/tiny-models/kimi_k25_vl-vllm-weights.json

Starts vLLM's engine (no server) on the model's own safetensors (no ``--load-format dummy``):
vLLM refuses a load that leaves a parameter uninitialised, so the engine starting proves the
checkpoint complete. Then, inside the engine's worker (``LLM.apply_model``), the model's files are
fed once more through the model's own ``load_weights`` with a tap: the fixture holds every tensor it
was handed (checkpoint name, dtype, shape), the parameters of the model vLLM built (vLLM's names,
after its ``hf_to_vllm_mapper`` and fused-parameter stacking) and the ones ``load_weights``
reported loaded. The builder's unit test compares its safetensors headers with it.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from pathlib import Path


def tapped_load(model_dir: str, vllm_model) -> dict:
    """Runs in the worker: the checkpoint through ``load_weights`` again, as the default loader feeds it."""
    from vllm.model_executor.model_loader.weight_utils import safetensors_weights_iterator

    tensors: dict[str, list] = {}

    def tap():
        files = sorted(str(f) for f in Path(model_dir).glob("*.safetensors"))
        for name, tensor in safetensors_weights_iterator(files, False):
            tensors[name] = [str(tensor.dtype).removeprefix("torch."), list(tensor.shape)]
            yield name, tensor

    loaded = vllm_model.load_weights(tap())
    return {"checkpoint_tensors": dict(sorted(tensors.items())),
            "parameters": {n: list(p.shape) for n, p in sorted(vllm_model.named_parameters())},
            "loaded_parameters": sorted(loaded)}


def record(model: Path, max_model_len: int) -> dict:
    # apply_model pickles the function by name for the worker process, which must import it: from
    # this module (not __main__), found through PYTHONPATH.
    tools = str(Path(__file__).resolve().parent)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [tools, os.environ.get("PYTHONPATH")]))
    sys.path.insert(0, tools)
    import record_vllm_weight_names

    os.environ["VLLM_ALLOW_INSECURE_SERIALIZATION"] = "1"
    os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
    os.environ.setdefault("VLLM_HOST_IP", "127.0.0.1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import vllm
    from vllm import LLM

    llm = LLM(model=str(model), enforce_eager=True, max_model_len=max_model_len)
    [seen] = llm.apply_model(functools.partial(record_vllm_weight_names.tapped_load, str(model)))
    architecture = json.loads((model / "config.json").read_text())["architectures"][0]
    return {"vllm": vllm.__version__, "architecture": architecture, **seen}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--max-model-len", type=int, default=2048)
    args = parser.parse_args(argv)
    doc = record(args.model, args.max_model_len)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(doc['checkpoint_tensors'])} tensors, {len(doc['parameters'])} parameters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
