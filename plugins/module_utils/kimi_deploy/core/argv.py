"""A ``vllm serve`` argv as ``{snake_case_name: value}``: for operator and recipe flags, never for a plan's own
fields (those are typed, see ``plan.py``), and for reading the argv of releases written before the plan was."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_SHORT_FLAGS = {"tp": "tensor_parallel_size", "pp": "pipeline_parallel_size", "dp": "data_parallel_size",
                "dcp": "decode_context_parallel_size"}
# vLLM flags that take several values (argparse nargs="+"): every value up to the next flag, as a tuple of strings.
MULTI_VALUE_FLAGS = frozenset({"allowed_media_domains"})


def param_name(flag: str) -> str:
    name = flag.lstrip("-")
    return _SHORT_FLAGS.get(name, name.replace("-", "_").lower())


def scalar(value: Any) -> Any:
    """``"true"`` -> True, ``"8"`` -> 8, ``"0.92"`` -> 0.92; anything else unchanged."""
    if not isinstance(value, str):
        return value
    low = value.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            continue
    return value


def is_flag(token: str) -> bool:
    if not token.startswith("-") or token == "-":
        return False
    try:
        float(token)
        return False  # a negative number is a value
    except ValueError:
        return True


def split_argv(args: Sequence[str]) -> tuple[list[tuple[str, Any, list[str]]], list[str]]:
    """``([(name, value, tokens), ...], positional)``: each flag with its typed value and the tokens it took
    (``--no-x`` gives ``x: False``, a flag without a value ``True``)."""
    items: list[tuple[str, Any, list[str]]] = []
    positional: list[str] = []
    tokens = [str(t) for t in args]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if is_flag(token):
            flag, eq, inline = token.partition("=")
            name = param_name(flag)
            taken = [token]
            if eq:
                value: Any = (inline,) if name in MULTI_VALUE_FLAGS else scalar(inline)
            elif name in MULTI_VALUE_FLAGS:
                values = []
                while i + 1 < len(tokens) and not is_flag(tokens[i + 1]):
                    values.append(tokens[i + 1])
                    i += 1
                taken += values
                value = tuple(values)
            elif i + 1 < len(tokens) and not is_flag(tokens[i + 1]):
                value = scalar(tokens[i + 1])
                taken.append(tokens[i + 1])
                i += 1
            elif name.startswith("no_"):
                name, value = name[3:], False
            else:
                value = True
            items.append((name, value, taken))
        else:
            positional.append(token)
        i += 1
    return items, positional


def argv_params(args: Sequence[str]) -> dict[str, Any]:
    """``["serve", "/m", "--max-model-len", "512", "-tp=8"]`` -> ``{"model": "/m", "max_model_len": 512,
    "tensor_parallel_size": 8}``; a later flag wins, as in vLLM's own parser."""
    items, positional = split_argv(args)
    params = {name: value for name, value, _unused in items}
    if positional and positional[0] == "serve":
        positional = positional[1:]
    if positional:
        params.setdefault("model", positional[0] if len(positional) == 1 else positional)
    return params
