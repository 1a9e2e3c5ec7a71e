"""An in-process fake of vLLM's HTTP API for the acceptance suite, served through httpx.MockTransport."""

from __future__ import annotations

import asyncio
import json

import httpx


class FakeVllm:
    """vLLM 0.32's answers (shapes measured on the CPU build) with a whitespace tokenizer.

    Knobs make it misbehave the ways a bad release does.
    """

    TEMPLATE_TOKENS = 6

    def __init__(self, *, max_model_len=128, api_key="sk-test", served="tiny", over_limit_status=400,
                 enforce_key=True, healthy=True, rss_growth_per_s=0.0, delay_s=0.002, stream_fault=None,
                 image_limit=None, image_tokens=9, tool_parser=None, reasoning_parser=None,
                 media_domains=("url-images-refused.invalid",)):
        self.max_model_len = max_model_len
        self.api_key = api_key
        self.served = served
        self.over_limit_status = over_limit_status
        self.enforce_key = enforce_key
        self.healthy = healthy
        self.rss_growth_per_s = rss_growth_per_s
        self.delay_s = delay_s
        self.stream_fault = stream_fault  # None, "error_event" or "no_done"
        self.t0 = None
        self.requests: list[httpx.Request] = []
        # Forms (vLLM 0.32's answers on the tiny K2.5 vision model, docs/multimodal-trial.md): images
        # allowed per prompt (None or 0: --language-model-only / no vision), the tokens one test image becomes,
        # the tool-call parser ("kimi_k2"; "unparsed": markup left in content; None: not served), the reasoning
        # parser (None: not served).
        self.image_limit = image_limit
        self.image_tokens = image_tokens
        self.tool_parser = tool_parser
        self.reasoning_parser = reasoning_parser
        # --allowed-media-domains (the plan's default: no URL images; None or empty: every host, so an image URL is
        # fetched, which fails without a network).
        self.media_domains = media_domains

    @staticmethod
    def count(text: str) -> int:
        return len(text.split())

    def _error(self, status, message, param=None, etype="BadRequestError"):
        return httpx.Response(status, json={"error": {"message": message, "type": etype, "param": param,
                                                      "code": status}})

    async def __call__(self, request: httpx.Request) -> httpx.Response:  # noqa: C901, PLR0911, PLR0912, PLR0915 - a fake vLLM: one branch per endpoint and input the suite sends
        import time

        self.t0 = self.t0 or time.monotonic()
        self.requests.append(request)
        await asyncio.sleep(self.delay_s)
        path = request.url.path
        if path == "/health":
            return httpx.Response(200 if self.healthy else 503)
        if path == "/version":
            return httpx.Response(200, json={"version": "0.32.0"})
        if path == "/metrics":
            rss = 5e8 + self.rss_growth_per_s * (time.monotonic() - self.t0)
            return httpx.Response(200, text=f'process_resident_memory_bytes {rss}\n'
                                            'vllm:kv_cache_usage_perc{engine="0"} 0.01\n'
                                            'vllm:cache_config_info{engine="0",kv_cache_size_tokens="4096"} 1.0\n')
        if path.startswith("/v1") and self.enforce_key and \
                request.headers.get("authorization") != f"Bearer {self.api_key}":
            return httpx.Response(401, json={"error": "Unauthorized"})
        if path == "/v1/models":
            return httpx.Response(200, json={"object": "list", "data": [
                {"id": self.served, "object": "model", "max_model_len": self.max_model_len}]})
        try:
            body = json.loads(request.content.decode("utf-8"))
        except UnicodeDecodeError:
            return httpx.Response(400, json={"detail": "There was an error parsing the body"})
        except ValueError:
            return self._error(400, "1 validation error: json_invalid", "body.1", "Bad Request")
        if path == "/tokenize":
            if "messages" in body and isinstance(body["messages"][0]["content"], list):
                n, refused = self._parts_prompt(body["messages"][0]["content"])
                if refused is not None:
                    return refused
            elif "messages" in body:
                n = self.TEMPLATE_TOKENS + self.count(body["messages"][0]["content"])
            else:
                n = self.count(body["prompt"])
            return httpx.Response(200, json={"count": n, "max_model_len": self.max_model_len,
                                             "tokens": list(range(3, 3 + n)), "token_strs": None})
        if body.get("model", self.served) != self.served:
            return self._error(404, f"The model `{body['model']}` does not exist.", "model", "NotFoundError")
        chat = path.endswith("/chat/completions")
        if chat and body.get("messages") and (isinstance(body["messages"][0].get("content"), list)
                                              or "tools" in body or "structured_outputs" in body):
            return self._forms_answer(body)
        if chat and "messages" not in body:
            return self._error(400, "1 validation error: missing body.messages", "body.messages", "Bad Request")
        if chat and not body["messages"]:
            return self._error(400, "Cannot apply chat template to an empty conversation.")
        max_tokens = body.get("max_tokens", 16)
        if not isinstance(max_tokens, int):
            return self._error(400, "1 validation error: int_parsing", "body.max_tokens", "Bad Request")
        if max_tokens < 1:
            return self._error(400, f"max_tokens must be at least 1, got {max_tokens}.", "max_tokens")
        if max_tokens > self.max_model_len:
            return self._error(400, f"max_tokens={max_tokens} cannot be greater than max_model_len", "max_tokens")
        if chat:
            content = body["messages"][0]["content"]
            if "\ud800" in content:
                return self._error(400, "TextEncodeInput must be Union[...]")
            prompt = self.TEMPLATE_TOKENS + self.count(content)
        elif isinstance(body.get("prompt"), list):
            if any(t >= 1024 for t in body["prompt"]):
                return self._error(400, f"Token id {max(body['prompt'])} is out of vocabulary")
            prompt = len(body["prompt"])
        else:
            if not body.get("prompt"):
                return self._error(400, "Either prompt or prompt_embeds must be provided and non-empty.", "prompt")
            if len(body["prompt"]) > 16 * self.max_model_len:
                return self._error(400, "This model's maximum context length is ... characters", "input_text")
            prompt = self.count(body["prompt"])
        if prompt > self.max_model_len:
            if self.over_limit_status != 400:
                return self._error(self.over_limit_status, "EngineCore encountered an issue.", None,
                                   "InternalServerError")
            return self._error(400, f"This model's maximum context length is {self.max_model_len} tokens. However, "
                                    f"your prompt contains at least {prompt} input tokens", "input_tokens")
        completion = min(max_tokens, self.max_model_len - prompt)
        usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
        if not body.get("stream"):
            choice = {"index": 0, "finish_reason": "length"}
            choice.update({"message": {"role": "assistant", "content": "ok " * completion}} if chat
                          else {"text": "ok " * completion})
            return httpx.Response(200, json={"choices": [choice], "usage": usage})
        events = []
        if chat:
            events.append({"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]})
        for i in range(completion):
            choice = {"index": 0, "token_ids": [500 + i],
                      "finish_reason": "length" if i == completion - 1 else None}
            choice.update({"delta": {"content": "ok"}} if chat else {"text": "ok"})
            events.append({"choices": [choice]})
        events.append({"choices": [], "usage": usage})
        if self.stream_fault == "error_event":
            events.insert(2, {"error": {"message": "EngineCore encountered an issue.", "type": "InternalServerError",
                                        "param": None, "code": 500}})
        text = "".join(f"data: {json.dumps(e)}\n\n" for e in events)
        text += "" if self.stream_fault == "no_done" else "data: [DONE]\n\n"
        return httpx.Response(200, text=text, headers={"content-type": "text/event-stream"})

    # -- forms ---------------------------------------------------------------------------------------------

    def _message(self, message, prompt, finish="length", completion=4):
        usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
        return httpx.Response(200, json={"object": "chat.completion", "usage": usage, "choices": [
            {"index": 0, "finish_reason": finish, "message": {"role": "assistant", **message}}]})

    def _parts_prompt(self, parts):
        """(prompt tokens, None) of a message given as parts, or (0, the error answer) when an image is refused."""
        images = [p for p in parts if p.get("type") == "image_url"]
        text = " ".join(p.get("text", "") for p in parts if p.get("type") == "text")
        prompt = self.TEMPLATE_TOKENS + self.count(text)
        if images:
            if len(images) > (self.image_limit or 0):
                return 0, self._error(400, f"At most {self.image_limit or 0} vision_chunk(s) may be provided in one "
                                           "prompt.", "vision_chunk")
            for url in (p["image_url"]["url"] for p in images):
                host = httpx.URL(url).host if url.startswith("http") else None
                if host is not None and self.media_domains and host not in self.media_domains:
                    return 0, self._error(400, f"The URL must be from one of the allowed domains: "
                                               f"{self.media_domains}. Input URL domain: {host}")
                if host is not None:  # fetched: no network here
                    return 0, self._error(500, f"Cannot connect to host {host}:80", None, "InternalServerError")
                if not url.startswith("data:image/png;base64,iVBORw0KGgo"):
                    return 0, self._error(400, "Failed to load image: cannot identify image file "
                                               "<_io.BytesIO object>")
            prompt += len(images) * (self.image_tokens + 9)  # + the media placeholder text around the pads
        return prompt, None

    def _forms_answer(self, body):  # noqa: PLR0911 - one answer per form and per way it is refused
        parts = body["messages"][0]["content"]
        parts = parts if isinstance(parts, list) else [{"type": "text", "text": parts}]
        prompt, refused = self._parts_prompt(parts)
        if refused is not None:
            return refused
        if prompt > self.max_model_len:
            return self._error(400, f"This model's maximum context length is {self.max_model_len} tokens. However, "
                                    f"your prompt contains at least {prompt} input tokens", "input_tokens")
        if "tools" in body:
            if any(not isinstance(t.get("function", {}).get("parameters"), dict) for t in body["tools"]):
                return self._error(400, "1 validation error: Input should be a valid dictionary",
                                   "body.tools.0.function.parameters", "Bad Request")
            if body.get("tool_choice") == "auto" and self.tool_parser is None:
                return self._error(400, '"auto" tool choice requires --enable-auto-tool-choice and '
                                        "--tool-call-parser to be set")
            if self.tool_parser == "unparsed":
                return self._message({"content": "<|tool_calls_section_begin|><|tool_call_begin|>functions."
                                                 'get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}'
                                                 "<|tool_call_end|><|tool_calls_section_end|>"}, prompt, "stop")
            call = {"id": "functions.get_weather:0", "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
            return self._message({"content": None, "tool_calls": [call]}, prompt, "tool_calls")
        if "structured_outputs" in body:
            return self._message({"content": '"yes"'}, prompt, "stop")
        if body.get("ignore_eos"):
            completion = min(body.get("max_tokens", 16), self.max_model_len - prompt)
            return self._message({"content": "ok " * completion}, prompt, completion=completion)
        return self._message({"content": "ok"}, prompt)
