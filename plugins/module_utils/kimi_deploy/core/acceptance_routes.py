"""The acceptance group ``routes``: every route probed through the front door without a key (pure).

vLLM's ``--api-key`` guards only the path prefixes ``/v1``, ``/v2``, ``/inference`` and ``/cohere``:
on vLLM 0.32 ``POST /invocations`` answers with a completion without the key, ``/tokenize``,
``/metrics`` and ``/version`` answer, ``/scale_elastic_ep`` is reachable. The front door
(roles/kimi_frontdoor) checks the key on every route but ``/health``. This group proves that on the
release being accepted: each route below is sent through the entry once without a key and once with
a wrong one, and any 2xx fails the check, naming the route. ``/health`` must answer 200 without a key
(the balancer's health check needs it). ``/metrics`` may answer the scrape networks without a key,
so a 2xx there passes only when the prober's own address is in them, and the table says so.

The probes are harmless on a server that is wide open: routes that change the engine (sleep,
scaling, profiling, LoRA loading...) are sent with a method they do not serve, so an open server
answers 405 (reached without a key: recorded, not accepted as proof of a door) and never acts; the
others carry a one-token request. A door answers 401 (no or wrong key) before the method matters.

The HTTP side is ``io/acceptance_client.py`` (``_check_routes_unauthenticated``).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

HEALTH_ROUTE = "/health"
METRICS_ROUTE = "/metrics"
REFUSED_STATUSES = frozenset({401, 403})

# Routes that change the engine: probed with GET, which none of them serves (see the module docstring).
STATEFUL_ROUTES = frozenset({
    "/scale_elastic_ep", "/is_scaling_elastic_ep", "/v1/load_lora_adapter", "/v1/unload_lora_adapter",
    "/start_profile", "/stop_profile", "/reset_prefix_cache", "/reset_mm_cache", "/sleep", "/wake_up",
    "/collective_rpc", "/pause", "/resume",
})
GET_ROUTES = frozenset({HEALTH_ROUTE, METRICS_ROUTE, "/version", "/ping", "/load", "/v1/models", "/is_sleeping",
                        "/server_info"})

# The routes the issue names and the rest vLLM 0.32's OpenAI server mounts; the users' routes too,
# which need the key as much as the others.
DEFAULT_ROUTES: tuple[str, ...] = (
    HEALTH_ROUTE, "/v1/chat/completions", "/v1/completions", "/v1/models", "/v1/embeddings", "/v1/responses",
    "/invocations", "/tokenize", "/detokenize", "/pooling", "/classify", "/score", "/v1/score", "/rerank",
    "/v1/rerank", "/v2/rerank", "/v1/audio/transcriptions", "/scale_elastic_ep", "/is_scaling_elastic_ep",
    METRICS_ROUTE, "/version", "/load", "/ping", "/v1/load_lora_adapter", "/v1/unload_lora_adapter",
    "/start_profile", "/stop_profile", "/reset_prefix_cache", "/sleep", "/wake_up", "/collective_rpc",
)


@dataclass(frozen=True)
class RouteProbe:
    path: str
    method: str
    json_body: Any = None


def probe_of(path: str, model: str) -> RouteProbe:
    """How ``path`` is probed: GET for reads and for the engine-changing routes, else a one-token POST."""
    if path in STATEFUL_ROUTES or path in GET_ROUTES:
        return RouteProbe(path, "GET")
    if path == "/detokenize":
        return RouteProbe(path, "POST", {"model": model, "tokens": [1, 2]})
    if path in ("/score", "/v1/score"):
        return RouteProbe(path, "POST", {"model": model, "text_1": "hi", "text_2": "hello"})
    if path.endswith("/rerank"):
        return RouteProbe(path, "POST", {"model": model, "query": "hi", "documents": ["hello"]})
    if path == "/v1/chat/completions":
        return RouteProbe(path, "POST", {"model": model, "messages": [{"role": "user", "content": "hi"}],
                                         "max_tokens": 1})
    # /invocations takes a completion body; /tokenize, /pooling, /classify, /v1/embeddings take "input"
    # or "prompt": both are sent, one token asked for.
    return RouteProbe(path, "POST", {"model": model, "prompt": "hi", "input": "hi", "max_tokens": 1})


def probes(routes: Iterable[str], model: str) -> list[RouteProbe]:
    """One probe per route, /health first, each route once, in the order given."""
    seen: list[str] = [HEALTH_ROUTE]
    for path in routes:
        if path not in seen:
            seen.append(path)
    return [probe_of(p, model) for p in seen]


def address_in_networks(address: str | None, networks: Sequence[str]) -> bool:
    """Whether the prober's source address is in one of the scrape networks (CIDR); False when unknown."""
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    candidates = [ip] if mapped is None else [ip, mapped]
    for net in networks:
        try:
            network = ipaddress.ip_network(str(net), strict=False)
        except ValueError:
            continue
        if any(c.version == network.version and c in network for c in candidates):
            return True
    return False


def _is_2xx(status: Any) -> bool:
    return isinstance(status, int) and 200 <= status < 300


def routes_verdict(rows: Sequence[Mapping[str, Any]], *, metrics_open_to_prober: bool = False,
                   ) -> tuple[bool, str, dict[str, Any]]:
    """(passed, detail, observed) of the probe table.

    Each row: ``route``, ``method``, ``no_auth`` and ``wrong_auth`` (the status, or the transport error as
    text). Fails when /health is not 200 without a key, or when any other route answers 2xx without a key
    or with a wrong one (/metrics: unless ``metrics_open_to_prober``, the prober being in the scrape
    networks). Statuses that are neither 2xx nor 401/403 (405, 404, 400...) mean the request went past the
    door's key check: listed as ``reached``, since the door answers 401 before anything else.
    """
    problems: list[str] = []
    open_routes: list[str] = []
    reached: list[str] = []
    health = next((r for r in rows if r["route"] == HEALTH_ROUTE), None)
    if health is None or health["no_auth"] != 200:
        problems.append(f"GET /health without a key answered {None if health is None else health['no_auth']}, not "
                        "200: the balancer's health check and the probes below need it open")
    for row in rows:
        if row["route"] == HEALTH_ROUTE:
            continue
        answers = {"without a key": row["no_auth"], "with a wrong key": row["wrong_auth"]}
        opened = [f"{how} {status}" for how, status in answers.items() if _is_2xx(status)]
        if opened and row["route"] == METRICS_ROUTE and metrics_open_to_prober:
            continue
        if opened:
            open_routes.append(row["route"])
            problems.append(f"{row['method']} {row['route']} answered {' and '.join(opened)}")
        elif any(isinstance(s, int) and s > 0 and s not in REFUSED_STATUSES for s in answers.values()):
            reached.append(f"{row['route']} ({row['no_auth']}/{row['wrong_auth']})")
    observed: dict[str, Any] = {"table": [dict(r) for r in rows], "open_routes": open_routes, "reached": reached,
                                "metrics_open_to_prober": metrics_open_to_prober}
    refused = sum(1 for r in rows if r["route"] != HEALTH_ROUTE and r["route"] not in open_routes)
    if problems:
        return False, ("open without a valid key: " + "; ".join(problems)
                       + ". Put the front door (kimi_frontdoor) before vLLM and bind vLLM to loopback"), observed
    detail = f"/health 200 without a key; {refused} route(s) refused without a key and with a wrong one"
    if metrics_open_to_prober:
        detail += "; /metrics open to this prober's scrape network, as configured"
    if reached:
        detail += f"; answered past the key check without 2xx: {', '.join(reached)}"
    return True, detail, observed


def table_markdown(rows: Sequence[Mapping[str, Any]]) -> str:
    """The probe table as Markdown (route, method, no key, wrong key), for reports and the docs."""
    lines = ["| route | method | no key | wrong key |", "|---|---|---|---|"]
    lines += [f"| {r['route']} | {r['method']} | {r['no_auth']} | {r['wrong_auth']} |" for r in rows]
    return "\n".join(lines)
