"""The acceptance suite's load run: N concurrent streams for a while, memory sampled beside them.

Memory comes from three places: the server's /metrics, the RSS of the server's process tree read
from /proc, and the GPUs' used memory through NVML when it is importable. The numbers go into a
``LoadRun`` that ``core/acceptance_checks.py`` judges.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import itertools
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.acceptance import AcceptanceConfig, metric_max, metric_total, parse_prometheus_text
from ..core.acceptance_checks import LoadRun
from .acceptance_http import AcceptanceHttp

# The /metrics series sampled during the run, by the name they get in the results.
METRIC_SERIES = (("kv_cache_usage", metric_max, "vllm:kv_cache_usage_perc"),
                 ("api_rss_bytes", metric_total, "process_resident_memory_bytes"),
                 ("requests_running", metric_total, "vllm:num_requests_running"),
                 ("requests_waiting", metric_total, "vllm:num_requests_waiting"))


def load_nvml() -> Any | None:
    """pynvml (nvidia-ml-py), else the copy vLLM vendors, loaded from its file so that vLLM itself
    is not imported; None on hosts without either."""
    try:
        return importlib.import_module("pynvml")
    except ImportError:
        pass
    spec = importlib.util.find_spec("vllm")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "third_party" / "pynvml.py"
    if not path.is_file():
        return None
    file_spec = importlib.util.spec_from_file_location("kimi_vendored_pynvml", path)
    module = importlib.util.module_from_spec(file_spec)
    try:
        file_spec.loader.exec_module(module)
    except Exception:  # a broken vendored copy only means no GPU samples
        return None
    return module


class GpuMemory:
    """Used GPU memory summed over the host's GPUs through NVML; ``available`` False without it."""

    def __init__(self, nvml: Any | None) -> None:
        self.nvml = nvml
        self.handles: list[Any] = []
        self.note = ""
        if nvml is None:
            self.note = "NVML not importable (no pynvml): GPU memory not sampled"
            return
        try:
            nvml.nvmlInit()
            self.handles = [nvml.nvmlDeviceGetHandleByIndex(i) for i in range(nvml.nvmlDeviceGetCount())]
        except Exception as err:  # NVML raises its own error classes; any of them means no GPU samples
            self.note = f"NVML did not start ({err}): GPU memory not sampled"
            self.handles = []
        if nvml is not None and not self.handles and not self.note:
            self.note = "NVML found no GPU: GPU memory not sampled"

    @property
    def available(self) -> bool:
        return bool(self.handles)

    def used_bytes(self) -> int | None:
        if not self.handles:
            return None
        return sum(int(self.nvml.nvmlDeviceGetMemoryInfo(h).used) for h in self.handles)

    def close(self) -> None:
        if self.handles:
            with contextlib.suppress(Exception):  # shutting NVML down cannot change a verdict
                self.nvml.nvmlShutdown()


def process_tree_rss(root_pid: int, proc_root: str | Path = "/proc") -> int | None:
    """RSS in bytes of ``root_pid`` and all its descendants (vLLM's API server, engine and workers)."""
    proc = Path(proc_root)
    children: dict[int, list[int]] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # Field 4 (ppid) follows the command name, which is in parentheses and may contain spaces.
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    if not (proc / str(root_pid)).exists():
        return None
    page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
    total, todo, seen = 0, [root_pid], set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            total += int((proc / str(pid) / "statm").read_text().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
        todo.extend(children.get(pid, []))
    return total


async def sample_memory(http: AcceptanceHttp, series: dict[str, list[list[float]]], gpu: GpuMemory,
                        server_pid: int | None, proc_root: str | Path) -> None:
    """Append one [monotonic time, value] point to each series that can be read now."""
    now = time.monotonic()
    ex = await http.send("GET", "/metrics")
    if ex.status == 200:
        samples = parse_prometheus_text(ex.response)
        for name, read, metric in METRIC_SERIES:
            value = read(samples, metric)
            if value is not None:
                series.setdefault(name, []).append([now, value])
    if server_pid:
        rss = process_tree_rss(server_pid, proc_root)
        if rss is not None:
            series.setdefault("server_rss_bytes", []).append([now, float(rss)])
    if gpu.available:
        used = gpu.used_bytes()
        if used is not None:
            series.setdefault("gpu_memory_used_bytes", []).append([now, float(used)])


DRAIN_SAMPLES, DRAIN_INTERVAL_S = 10, 0.5  # the server's running count reaches 0 within 5 s of the last stream


async def run_load(http: AcceptanceHttp, cfg: AcceptanceConfig, *, text: str, in_tokens: int, out_tokens: int,
                   nvml_loader: Callable[[], Any], proc_root: str | Path, notes: list[str]) -> LoadRun:
    """``cfg.concurrency`` streams of ``text`` until the run's duration is up, memory sampled meanwhile."""
    gpu = GpuMemory(nvml_loader())
    if gpu.note:
        notes.append(gpu.note)
    counter = itertools.count()
    stop = asyncio.Event()
    duration = cfg.effective_duration_s
    series: dict[str, list[list[float]]] = {}
    await sample_memory(http, series, gpu, cfg.server_pid, proc_root)  # idle, before the first request
    run_start = time.monotonic()
    # A server that fails request after request will not recover within the run: stop early.
    run = LoadRun(in_tokens=in_tokens, out_tokens=out_tokens, duration_s=duration, run_start=run_start,
                  deadline=run_start + duration, max_errors=max(5, cfg.concurrency), series=series)

    async def worker() -> None:
        while time.monotonic() < run.deadline and len(run.failures) < run.max_errors:
            i = next(counter)
            body = {"model": cfg.served_model_name, "max_tokens": out_tokens, "ignore_eos": True,
                    "messages": [{"role": "user", "content": f"[{i}] {text}"}], "stream": True,
                    "stream_options": {"include_usage": True}, "return_token_ids": True}
            rec, ex = await http.stream("/v1/chat/completions", body)
            run.records.append(rec)
            if not rec.ok:
                run.failures.append(rec)
                if len(run.failure_exchanges) < 3:
                    run.failure_exchanges.append(ex)

    async def sampler() -> None:
        while not stop.is_set():
            await sample_memory(http, run.series, gpu, cfg.server_pid, proc_root)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), cfg.sample_interval_s)

    sampler_task = asyncio.create_task(sampler())
    try:
        await asyncio.gather(*(worker() for _unused in range(cfg.concurrency)))
    finally:
        run.run_end = time.monotonic()
        stop.set()
        await sampler_task
        # Idle again once every stream has ended: what memory the run's requests left behind (the KV verdict).
        # (A server that reports no running count gets one sample: there is nothing to wait for.)
        for _attempt in range(DRAIN_SAMPLES):
            await sample_memory(http, run.series, gpu, cfg.server_pid, proc_root)
            running = run.series.get("requests_running")
            if not running or running[-1][1] == 0:
                break
            await asyncio.sleep(DRAIN_INTERVAL_S)
        gpu.close()
    return run
