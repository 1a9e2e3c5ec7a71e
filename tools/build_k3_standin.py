#!/usr/bin/env python
"""Build a header-only stand-in of the published Kimi K3 checkpoint: the real layout, tiny data.

    build_k3_standin.py --out DIR [--table data/models/kimi-k3/tensor-table.json]
                        [--config data/models/kimi-k3/config.json]

What is real: all 497,220 tensor names and dtypes, expanded from the tensor table; the 96 shard
files with K3's six-digit total (``model-00001-of-000096.safetensors``); which shard holds what
(layer L in shard L+1, as shard 1 holds layer 0; lm_head/embeddings/final norms in 94, the
projector in 95, the vision tower in 96, as the table names them); ``config.json`` verbatim, with
its ``auto_map``; special token ids 163584-163839 on top of a 163,584-rank tiktoken vocabulary,
which fills ``vocab_size`` 163840 exactly.

What is not: every tensor dimension is 1 (a tensor is 1-2 bytes), so the tree is ~130 MB of
headers and index instead of 1453.7 GiB. The index keeps the real ``total_size`` and
``kimi-standin.json`` records the real totals, for planners that size from them. Token bytes and
the ``*.py`` files the auto_map names are placeholders. Output is deterministic.
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "plugins" / "module_utils"))
from kimi_deploy.core.safetensors_format import tensor_nbytes, write_file

DEFAULT_TABLE = REPO_ROOT / "data/models/kimi-k3/tensor-table.json"
DEFAULT_CONFIG = REPO_ROOT / "data/models/kimi-k3/config.json"
SHARDS = 96
SHARD_NAME = "model-{index:05d}-of-{total:06d}.safetensors"
BPE_RANKS = 163584  # ids below the first special token (bos_token_id)
SPECIAL_IDS = range(163584, 163840)
# The placeholder that config.json names; other special names are stand-ins.
NAMED_SPECIALS = {163584: "[BOS]", 163586: "[EOS]", 163605: "<|kimi_image_placeholder|>", 163839: "[PAD]"}


def shard_name(index: int, total: int = SHARDS) -> str:
    return SHARD_NAME.format(index=index, total=total)


def expand(table: dict) -> Iterator[tuple[str, str, tuple[int, ...], str]]:
    """Every tensor of the table as (name, dtype, real shape, shard file name)."""
    sets = table["layer_sets"]
    for row in table["rows"]:
        layers = sets[row["layers"]] if "layers" in row else [None]
        repeat = row.get("experts") or row.get("blocks") or 1
        for layer in layers:
            if "file" in row:
                shard = row["file"]
            elif layer is not None:
                shard = shard_name(layer + 1)
            else:
                raise ValueError(f"row {row['name']!r} names neither a layer set nor a file")
            for i in range(repeat):
                name = row["name"].replace("{layer}", str(layer)).replace("{expert}", str(i))
                yield name.replace("{block}", str(i)), row["dtype"], tuple(row["shape"]), shard


def _tiktoken_lines() -> Iterator[bytes]:
    # Distinct placeholder byte strings; only the rank count matters to a verifier.
    for rank in range(BPE_RANKS):
        token = bytes([rank]) if rank < 256 else rank.to_bytes(3, "big")
        yield base64.b64encode(token) + b" %d\n" % rank


def _write_json(path: Path, doc: dict) -> None:
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def build(out: Path, table_path: Path = DEFAULT_TABLE, config_path: Path = DEFAULT_CONFIG) -> dict:
    table = json.loads(table_path.read_text(encoding="utf-8"))
    config = json.loads(config_path.read_text(encoding="utf-8"))
    out.mkdir(parents=True, exist_ok=True)
    by_shard: dict[str, dict[str, tuple[str, tuple[int, ...], bytes]]] = {}
    weight_map: dict[str, str] = {}
    real_bytes = real_elements = 0
    for name, dtype, shape, shard in expand(table):
        if name in weight_map:
            raise ValueError(f"tensor {name!r} appears twice in {table_path}")
        tiny = (1,) * len(shape)
        by_shard.setdefault(shard, {})[name] = (dtype, tiny, bytes(tensor_nbytes(dtype, tiny)))
        weight_map[name] = shard
        real_bytes += tensor_nbytes(dtype, shape)
        real_elements += math.prod(shape)
    expected_names = {shard_name(i) for i in range(1, SHARDS + 1)}
    if set(by_shard) != expected_names:
        raise ValueError(f"{table_path} fills shards {sorted(set(by_shard) ^ expected_names)[:5]} "
                         f"differently from the {SHARDS} published ones")
    metadata = {"format": "pt", "kimi_standin": "dimensions scaled to 1; see kimi-standin.json"}
    for shard, tensors in sorted(by_shard.items()):
        write_file(out / shard, tensors, metadata)
    _write_json(out / "model.safetensors.index.json",
                {"metadata": {"total_size": real_bytes}, "weight_map": dict(sorted(weight_map.items()))})
    _write_json(out / "config.json", config)
    _write_json(out / "generation_config.json", {"temperature": 1.0, "top_p": 1.0})
    with (out / "tiktoken.model").open("wb") as fh:
        fh.writelines(_tiktoken_lines())
    _write_json(out / "tokenizer_config.json", {
        "auto_map": {"AutoTokenizer": ["tokenization_kimi.TikTokenTokenizer", None]},
        "tokenizer_class": "TikTokenTokenizer",
        "bos_token": NAMED_SPECIALS[163584],
        "eos_token": NAMED_SPECIALS[163586],
        "pad_token": NAMED_SPECIALS[163839],
        "added_tokens_decoder": {
            str(i): {"content": NAMED_SPECIALS.get(i, f"<|reserved_token_{i}|>"), "special": True}
            for i in SPECIAL_IDS
        },
    })
    for module in ("configuration_kimi_k3", "modeling_kimi_k3", "modeling_kimi_linear", "tokenization_kimi"):
        (out / f"{module}.py").write_text(
            f'"""Placeholder for {module}.py of moonshotai/Kimi-K3 (kimi-deploy stand-in, not runnable)."""\n',
            encoding="utf-8")
    summary = {
        "source": table_path.name,
        "shards": SHARDS,
        "tensors": len(weight_map),
        "real_elements": real_elements,
        "real_tensor_bytes": real_bytes,
        "published_totals": table.get("published_totals", {}),
    }
    _write_json(out / "kimi-standin.json", summary)
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--table", type=Path, default=DEFAULT_TABLE)
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG)
    args = parser.parse_args(argv)
    summary = build(args.out, args.table, args.config)
    print(json.dumps({"out": str(args.out), **summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
