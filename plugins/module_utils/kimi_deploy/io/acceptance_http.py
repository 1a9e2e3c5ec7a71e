"""The acceptance suite's HTTP side: requests to the vLLM server with httpx's async client, timed.

httpx is the only third-party import of the package: this runs on the GPU host under the release
venv's python, where httpx is present because vLLM depends on it. Every answer comes back as an
``Exchange`` (or a ``StreamRecord`` for a stream) for ``core/acceptance_checks.py`` to judge.
"""

from __future__ import annotations

import json
import secrets
import socket
import ssl
import time
import urllib.parse
from collections.abc import Sequence
from typing import Any

try:
    import httpx
except ImportError:  # only the release venv has httpx (vLLM depends on it); kimi_vllm_acceptance says so
    httpx = None

from ..core.acceptance import AcceptanceConfig, StreamRecord, exact_token_prompt, filler_text, truncate
from ..core.acceptance_checks import CheckFailed, Exchange, SseReader

AUTH_NOTES = {"key": "Authorization: Bearer <redacted>", "none": "no Authorization header",
              "wrong": "Authorization: Bearer <a wrong key>"}
BODY_PREVIEW_BYTES = 4096


def wrong_key(real: str) -> str:
    """A fresh random key for the wrong-key check, never derived from the real one.

    The real key plus a suffix would send the real key over the wire (and into any proxy or access
    log) on a request meant to fail; a server comparing prefixes would even accept it.
    """
    while True:
        candidate = "kimi-wrong-" + secrets.token_urlsafe(24)
        if candidate != real and (not real or (real not in candidate and candidate not in real)):
            return candidate


def open_client(cfg: AcceptanceConfig, transport: httpx.AsyncBaseTransport | None = None) -> httpx.AsyncClient:
    """A client with room for every load stream plus the sampler and checks beside them."""
    limits = httpx.Limits(max_connections=cfg.concurrency + 8, max_keepalive_connections=cfg.concurrency + 8)
    timeout = httpx.Timeout(cfg.request_timeout_s, connect=30.0)
    return httpx.AsyncClient(base_url=cfg.base_url, timeout=timeout, limits=limits, transport=transport)


def open_entry_client(cfg: AcceptanceConfig, transport: httpx.AsyncBaseTransport | None = None) -> httpx.AsyncClient:
    """A client for the front door (cfg.entry_url), its certificate checked against cfg.entry_ca_file.

    Without a CA file the certificate is not verified: the routes probes carry no key, only none or a
    random wrong one, so nothing is exposed to whoever answers.
    """
    timeout = httpx.Timeout(60.0, connect=10.0)
    verify = ssl.create_default_context(cafile=cfg.entry_ca_file) if cfg.entry_ca_file else False
    return httpx.AsyncClient(base_url=cfg.entry_url, timeout=timeout, verify=verify, transport=transport)


def source_address(url: str, timeout_s: float = 5.0) -> str | None:
    """The local address a connection to ``url`` leaves from (what the server sees as its source), None
    when it cannot connect."""
    parsed = urllib.parse.urlsplit(url)
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        with socket.create_connection((parsed.hostname, port), timeout=timeout_s) as conn:
            return str(conn.getsockname()[0])
    except OSError:
        return None


class AcceptanceHttp:
    """Requests of one suite run; remembers the last exchange (to show when a check raises) and
    builds prompts of an exact token count through the server's own /tokenize."""

    def __init__(self, client: httpx.AsyncClient, cfg: AcceptanceConfig) -> None:
        self.client = client
        self.cfg = cfg
        self.last_exchange: Exchange | None = None
        self.tokenize_calls = 0
        self._prompt_cache: dict[tuple[int, bool, tuple[str, ...] | None], str] = {}

    def _headers(self, auth: str = "key") -> dict[str, str]:
        if auth == "key" and self.cfg.api_key:
            return {"Authorization": f"Bearer {self.cfg.api_key}"}
        if auth == "wrong":
            return {"Authorization": f"Bearer {wrong_key(self.cfg.api_key)}"}
        return {}

    async def send(self, method: str, path: str, *, json_body: Any = None, raw: bytes | None = None,
                   auth: str = "key") -> Exchange:
        content = raw if raw is not None else (None if json_body is None else json.dumps(json_body).encode())
        headers = self._headers(auth)
        if content is not None:
            headers["Content-Type"] = "application/json"
        preview = "" if content is None else truncate(content[:BODY_PREVIEW_BYTES].decode("utf-8", "replace"))
        if content is not None and len(content) > BODY_PREVIEW_BYTES:
            preview = truncate(preview, 1000) + f"... [{len(content)} bytes in all]"
        ex = Exchange(method, path, preview, headers_note=AUTH_NOTES[auth])
        start = time.monotonic()
        try:
            resp = await self.client.request(method, path, content=content, headers=headers)
            ex.status = resp.status_code
            ex.response = resp.text
        except httpx.HTTPError as err:
            ex.error = f"{type(err).__name__}: {err}"
        ex.elapsed_s = time.monotonic() - start
        self.last_exchange = ex
        return ex

    async def healthy(self) -> tuple[bool, Exchange]:
        ex = await self.send("GET", "/health")
        return ex.status == 200, ex

    async def stream(self, path: str, body: dict[str, Any]) -> tuple[StreamRecord, Exchange]:
        content = json.dumps(body).encode()
        headers = {**self._headers(), "Content-Type": "application/json"}
        ex = Exchange("POST", path, truncate(content.decode("utf-8", "replace")))
        reader = SseReader(StreamRecord(start=time.monotonic()))
        rec = reader.record
        try:
            async with self.client.stream("POST", path, content=content, headers=headers) as resp:
                rec.status = ex.status = resp.status_code
                if resp.status_code != 200:
                    ex.response = (await resp.aread()).decode("utf-8", "replace")
                    rec.error = f"HTTP {resp.status_code}"
                else:
                    async for line in resp.aiter_lines():
                        reader.feed(line, time.monotonic())
                    ex.response = reader.finish()
        except (httpx.HTTPError, ValueError) as err:
            rec.error = f"{type(err).__name__}: {err}"
            ex.error = rec.error
        rec.end = time.monotonic()
        ex.elapsed_s = rec.end - rec.start
        self.last_exchange = ex
        return rec, ex

    # ------------------------------------------------------------------------------------ prompts

    async def count_tokens(self, text: str, chat: bool, add_special_tokens: bool = True,
                           images: Sequence[str] | None = None) -> tuple[int, list[int]]:
        """The server's count of ``text`` as a prompt, or as a chat message; with ``images`` (image URLs, maybe
        none) the message's content is parts, the images then the text, as an image request sends it (the
        server runs the image processor, so each image counts its tokens)."""
        body: dict[str, Any] = {"model": self.cfg.served_model_name}
        if chat and images is not None:
            parts = [{"type": "image_url", "image_url": {"url": url}} for url in images]
            body["messages"] = [{"role": "user", "content": [*parts, {"type": "text", "text": text}]}]
        elif chat:
            body["messages"] = [{"role": "user", "content": text}]
        else:
            body["prompt"] = text
            body["add_special_tokens"] = add_special_tokens
        ex = await self.send("POST", "/tokenize", json_body=body)
        self.tokenize_calls += 1
        data = ex.json()
        if ex.status != 200 or not isinstance(data, dict) or "count" not in data:
            raise CheckFailed(f"/tokenize answered {ex.status or ex.error} instead of a token count: cannot build "
                              "prompts of an exact length", ex)
        return int(data["count"]), list(data.get("tokens") or [])

    async def exact_text(self, target: int, chat: bool, images: Sequence[str] | None = None) -> str:
        """Text (or chat content) the server counts as exactly ``target`` tokens (with ``images``: the text part
        of a message carrying them, see ``count_tokens``)."""
        key = (target, chat, tuple(images) if images is not None else None)
        if key not in self._prompt_cache:
            search = exact_token_prompt(target)
            candidate = next(search)
            while True:
                count, _unused = await self.count_tokens(candidate, chat, images=images)
                try:
                    candidate = search.send(count)
                except StopIteration as stop:
                    self._prompt_cache[key] = stop.value
                    break
        return self._prompt_cache[key]

    async def seed_token_ids(self) -> list[int]:
        _unused, ids = await self.count_tokens(filler_text(64), chat=False, add_special_tokens=False)
        return ids
