#!/usr/bin/env python
"""Record chat-completions responses in Kimi K2 / K3 formats by running the pinned vLLM's own parsers.

    <vllm venv>/bin/python tools/record_form_fixtures.py --out tests/fixtures/model-forms

Each case is a raw model output quoted from a public source (vLLM's parser tests or the parser's
own docstring; the URL is in the fixture's ``source``). The installed vLLM's ``ParserManager``
parses it exactly as ``vllm serve --tool-call-parser X --reasoning-parser Y`` would, and the result
is written as the ``message`` a server returns, next to the ``unparsed`` message a server started
without the parser flags returns (special tokens skipped, as vLLM's default detokenization does).
The acceptance checks are tested against both, so a broken parser flag is a failing fixture.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

K2_TEST = "https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_kimi_k2_tool_parser.py"
K2_REASONING_TEST = "https://github.com/vllm-project/vllm/blob/main/tests/reasoning/test_kimi_k2_reasoning_parser.py"
K3_TOOL_PARSER = "https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/kimi_k3_tool_parser.py"
K3_REASONING_TEST = "https://github.com/vllm-project/vllm/blob/main/tests/reasoning/test_kimi_k3_reasoning_parser.py"

K2_SECTION = "<|tool_calls_section_begin|>{}<|tool_calls_section_end|>"
K2_CALL = "<|tool_call_begin|>{} <|tool_call_argument_begin|>{}<|tool_call_end|>"
K3_THINK = "<|open|>think<|sep|>{}<|close|>think<|sep|>"
K3_CALLS = (
    "<|open|>tools<|sep|>"
    '<|open|>call tool="python" index="1"<|sep|>'
    '<|open|>argument key="code" type="string"<|sep|>print(1)<|close|>argument<|sep|>'
    '<|open|>argument key="opts" type="object"<|sep|>{"a":1}<|close|>argument<|sep|>'
    "<|close|>call<|sep|>"
    "<|close|>tools<|sep|>"
)
WEATHER = {"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string"}}}}}
PYTHON = {"type": "function", "function": {"name": "python", "parameters": {
    "type": "object", "properties": {"code": {"type": "string"}, "opts": {"type": "object"}}}}}
K2_SPECIAL = ["<think>", "</think>", "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>",
              "<|tool_call_begin|>", "<|tool_call_end|>", "<|tool_call_argument_begin|>"]
K3_SPECIAL = ["<|open|>", "<|close|>", "<|sep|>"]

CASES = [
    # name, tool parser, reasoning parser, tools, raw model output, special tokens, source
    ("k2-tool-call-single", "kimi_k2", None, [WEATHER],
     "I'll check. " + K2_SECTION.format(K2_CALL.format("functions.get_weather:0", '{"city": "Beijing"}')),
     K2_SPECIAL, K2_TEST + " (test_extract_tool_calls, id single_tool_call)"),
    ("k2-tool-calls-parallel", "kimi_k2", None, [WEATHER],
     "Compare weather. " + K2_SECTION.format(
         K2_CALL.format("functions.get_weather:0", '{"city": "Beijing"}')
         + K2_CALL.format("functions.get_weather:1", '{"city": "Shanghai"}')),
     K2_SPECIAL, K2_TEST + " (test_extract_tool_calls, id parallel_tool_calls)"),
    ("k2-reasoning", None, "kimi_k2", [], "<think>step by step reasoning</think>final answer",
     K2_SPECIAL, K2_REASONING_TEST + " (test_extract_reasoning_with_think_tags)"),
    ("k3-tool-call", "kimi_k3", "kimi_k3", [PYTHON], K3_THINK.format("step") + K3_CALLS,
     K3_SPECIAL, K3_TOOL_PARSER + " (module docstring: the XTML tool-call example), after the think channel of "
     + K3_REASONING_TEST),
    ("k3-reasoning", None, "kimi_k3", [], K3_THINK.format("step") + "<|open|>response<|sep|>answer",
     K3_SPECIAL, K3_REASONING_TEST + " (test_extract_reasoning_with_xtml_tags)"),
]


class _Tokenizer:
    """The shape of tokenizer vLLM's own parser tests use: special tokens get ids, text is per character."""

    def __init__(self, special: list[str]) -> None:
        self.vocab = {t: 100_000 + i for i, t in enumerate(special)}

    def get_vocab(self) -> dict[str, int]:
        return dict(self.vocab)

    def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
        if text in self.vocab:
            return [self.vocab[text]]
        return [ord(c) for c in text]

    def tokenize(self, text: str) -> list[str]:
        return list(text)

    def convert_tokens_to_ids(self, token: str) -> int | None:
        return self.vocab.get(token)


def _strip_special(text: str, special: list[str]) -> str:
    for token in special:
        text = text.replace(token, "")
    return text


def _message(content: str | None, reasoning: str | None, calls: list) -> tuple[dict, str]:
    message: dict = {"role": "assistant", "content": content, "reasoning": reasoning, "tool_calls": []}
    for index, call in enumerate(calls):
        message["tool_calls"].append({"id": f"functions.{call.name}:{index}", "type": "function",
                                      "function": {"name": call.name, "arguments": call.arguments}})
    return message, "tool_calls" if calls else "stop"


def record(out: Path) -> list[Path]:
    import vllm
    from vllm.entrypoints.openai.chat_completion.protocol import ChatCompletionRequest
    from vllm.parser.parser_manager import ParserManager

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, tool_parser, reasoning_parser, tools, raw, special, source in CASES:
        request = ChatCompletionRequest(model="kimi", messages=[{"role": "user", "content": "hi"}],
                                        tools=tools or None)
        parser_cls = ParserManager.get_parser(tool_parser_name=tool_parser, reasoning_parser_name=reasoning_parser,
                                              enable_auto_tools=bool(tool_parser))
        parser = parser_cls(_Tokenizer(special), tools=request.tools)
        reasoning, content, calls = parser.parse(raw, request, enable_auto_tools=bool(tool_parser))
        message, finish = _message(content, reasoning, calls or [])
        unparsed = {"role": "assistant", "content": _strip_special(raw, special), "reasoning": None, "tool_calls": []}
        doc = {
            "source": source,
            "raw_model_output": raw,
            "recorded_with": {"vllm": vllm.__version__, "tool_call_parser": tool_parser,
                              "reasoning_parser": reasoning_parser},
            "tools": tools,
            "response": {"object": "chat.completion", "choices": [
                {"index": 0, "message": message, "finish_reason": finish}]},
            "unparsed_response": {"object": "chat.completion", "choices": [
                {"index": 0, "message": unparsed, "finish_reason": "stop"}]},
            "unparsed_with_special_tokens": {"object": "chat.completion", "choices": [
                {"index": 0, "message": dict(unparsed, content=raw), "finish_reason": "stop"}]},
        }
        path = out / f"{name}.json"
        path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    for path in record(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
