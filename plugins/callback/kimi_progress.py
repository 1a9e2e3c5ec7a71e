# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Stdout callback: Ansible's default output, with progress people can read on the long steps."""

from __future__ import annotations

DOCUMENTATION = r"""
name: kimi_progress
type: stdout
short_description: Default output, with a progress line per long step instead of async-poll noise
description:
  - Everything Ansible's C(default) stdout callback prints, task banners and the recap included, with three
    changes for the long steps of a deploy (the vLLM venv, the weights fetch, vLLM's start and health gate,
    the acceptance suite, tuning runs).
  - The C(ASYNC POLL ... finished=False) and C(ASYNC OK) lines are not printed.
  - "While a task runs longer than O(interval) seconds, a line says what it is doing on which hosts and for how
    long (C(... kimi-demo-1: building the vLLM venv ..., 15 s)), then again each time the elapsed time has
    doubled (30 s, 1 min, 2 min, ...), so a long step prints a few lines, not one per poll."
  - When one of those steps ends, one line gives its figures - the venv and vLLM version, the files and bytes
    fetched with the elapsed time and rate, how long vLLM took to serve, the acceptance verdict with its
    headline figures.
  - While the weights download on a GPU host, the exact files, bytes, rate and ETA are in the fetch's
    progress file on that host, C(<root>/shared/models/<org>--<name>@<sha>.progress.json); the progress line
    names it.
extends_documentation_fragment:
  - default_callback
  - result_format_callback
options:
  interval:
    description: Seconds a task runs before its first progress line.
    type: float
    default: 15
    env:
      - name: KIMI_PROGRESS_INTERVAL
    ini:
      - section: kimi_progress
        key: interval
requirements:
  - set as stdout_callback in ansible.cfg (callback_plugins = plugins/callback)
"""

import threading
import time

from ansible.plugins.callback.default import CallbackModule as DefaultCallbackModule

# What a long step is doing, by module; other tasks are named by their task name.
_DOING = {
    "kimi_vllm_venv": "building the vLLM venv (once per package set; a wheelhouse makes it offline)",
    "kimi_hf_snapshot": ("fetching the weights (files, bytes, rate and ETA: "
                         "<root>/shared/models/<org>--<name>@<sha>.progress.json on the host)"),
    "kimi_weights_verify": "verifying the weights (headers, sizes, sha256, tokenizer, architecture)",
    "kimi_vllm_health": "waiting for vLLM to load the model and answer (/health, /v1/models, one chat)",
    "kimi_vllm_acceptance": ("running the acceptance suite (short requests, the longest input and one token "
                             "over it, abnormal inputs, then the concurrent load)"),
    "kimi_ray_cluster": "waiting for the Ray cluster to assemble",
    "kimi_deploy_lock": "waiting for the host's deploy lock",
}


def _short_action(action: str) -> str:
    return action.rsplit(".", 1)[-1]


def _mib(n: float) -> str:
    return f"{n / 1024**2:.1f} MiB" if n < 1024**3 else f"{n / 1024**3:.2f} GiB"


def _seconds(s: float) -> str:
    s = round(s)
    return f"{s} s" if s < 120 else f"{s // 60} min {s % 60:02d} s"


def _figure(stats: object, key: str) -> str:
    if isinstance(stats, dict) and isinstance(stats.get(key), (int, float)):
        return f"{stats[key]:.0f}"
    return "?"


def _venv_line(result: dict, elapsed: float) -> str | None:
    what = "built" if result.get("changed") else "already built"
    return (f"vLLM venv {result.get('key', '?')} {what} (vLLM {result.get('vllm_version', '?')}), "
            f"{_seconds(elapsed)}")


def _snapshot_line(result: dict, elapsed: float) -> str | None:
    fetched = result.get("fetched_files") or []
    total = len(result.get("files") or [])
    nbytes = int(result.get("bytes_downloaded") or 0)
    sha = str(result.get("revision_sha", "?"))[:12]
    if not fetched:
        return (f"weights {result.get('repo_id', '?')}@{sha}: all {total} files already here "
                f"({_mib(int(result.get('bytes_total') or 0))}), nothing fetched")
    rate = nbytes / elapsed if elapsed > 0 else 0.0
    return (f"weights {result.get('repo_id', '?')}@{sha}: fetched {len(fetched)} of {total} files, "
            f"{_mib(nbytes)} in {_seconds(elapsed)} ({_mib(rate)}/s)")


def _health_line(result: dict, elapsed: float) -> str | None:
    waited = result.get("waited_s")
    smoke = result.get("smoke") or {}
    line = f"vLLM serves {', '.join(result.get('models') or []) or '?'}"
    if isinstance(waited, (int, float)):
        line += f": /health answered after {_seconds(waited)}"
    if isinstance(smoke, dict) and smoke.get("finish_reason"):
        line += f", the smoke chat finished ({smoke['finish_reason']})"
    return line


def _acceptance_line(result: dict, elapsed: float) -> str | None:
    checks = result.get("checks") or {}
    if not checks:
        return None
    passed = sum(1 for c in checks.values() if isinstance(c, dict) and c.get("status") == "passed")
    skipped = sum(1 for c in checks.values() if isinstance(c, dict) and c.get("status") == "skipped")
    conc = (result.get("metrics") or {}).get("concurrency") or {}
    verdict = "passed" if result.get("passed") else "FAILED: " + ", ".join(result.get("failed_checks") or [])
    line = (f"acceptance {verdict}: {passed} checks passed, {skipped} skipped, "
            f"{_seconds(float(result.get('suite_duration_s') or elapsed))}")
    if isinstance(conc, dict) and conc.get("output_tokens_per_s") is not None:
        line += (f"; under load {_figure(conc, 'output_tokens_per_s')} output tok/s, "
                 f"TTFT p50 {_figure(conc.get('ttft_ms'), 'p50')} ms, "
                 f"latency p95 {_figure(conc.get('latency_ms'), 'p95')} ms")
    return line


# The long steps that end with a summary line, by module.
STEP_LINES = {"kimi_vllm_venv": _venv_line, "kimi_hf_snapshot": _snapshot_line, "kimi_vllm_health": _health_line,
              "kimi_vllm_acceptance": _acceptance_line}


def step_summary(action: str, result: dict, elapsed: float) -> str | None:
    """The one line that ends a long step (None for other tasks); pure, for the unit tests."""
    line = STEP_LINES.get(_short_action(action))
    if line is None or result.get("skipped") or result.get("failed"):
        return None
    if result.get("up_to_date") is False and not result.get("changed"):
        return None  # a check-mode probe that found work to do: the task doing it prints the line
    return line(result, elapsed)


class CallbackModule(DefaultCallbackModule):
    """Ansible's default stdout callback, with a readable progress line per long step."""

    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "stdout"
    CALLBACK_NAME = "kimi_progress"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._lock = threading.Lock()
        self._task = None  # (what, started monotonic) of the task running now
        self._running: dict[str, float] = {}  # host -> when the task started on it
        self._next_line = 0.0
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    # ------------------------------------------------------------------ the progress ticker
    def _interval(self) -> float:
        try:
            return max(1.0, float(self.get_option("interval")))
        except (KeyError, TypeError, ValueError):
            return 15.0

    def _ensure_ticker(self) -> None:
        if self._ticker is None:
            self._ticker = threading.Thread(target=self._tick, name="kimi-progress", daemon=True)
            self._ticker.start()

    def _tick(self) -> None:
        while not self._stop.wait(1.0):
            with self._lock:
                if self._task is None or not self._running:
                    continue
                now = time.monotonic()
                if now < self._next_line:
                    continue
                started = min(self._running.values())
                self._next_line = started + max(2 * (now - started), self._interval())
                what = self._task[0]
                hosts = ", ".join(sorted(self._running))
            self._display.display(f"  ... {hosts}: {what}, {_seconds(now - started)}")

    def _begin_task(self, task) -> None:
        action = _short_action(task.action or "")
        what = _DOING.get(action) or (task.get_name().strip() or action)
        with self._lock:
            self._task = (what, time.monotonic())
            self._running = {}
            self._next_line = time.monotonic() + self._interval()
        self._ensure_ticker()

    def _host_done(self, result) -> float:
        """Stop counting a host; returns how long the task ran on it."""
        with self._lock:
            started = self._running.pop(result.host.get_name(), None)
            if started is None and self._task is not None:
                started = self._task[1]
        return time.monotonic() - started if started is not None else 0.0

    def _summarise(self, result, elapsed: float) -> None:
        try:
            line = step_summary(result.task.action or "", dict(result.result), elapsed)
        except Exception:  # a summary line must never break a deploy's output
            line = None
        if line:
            self._display.display(f"  {result.host.get_name()}: {line}")

    # ------------------------------------------------------------------ task and host events
    def v2_playbook_on_task_start(self, task, is_conditional):
        self._begin_task(task)
        super().v2_playbook_on_task_start(task, is_conditional)

    def v2_playbook_on_handler_task_start(self, task):
        self._begin_task(task)
        super().v2_playbook_on_handler_task_start(task)

    def v2_runner_on_start(self, host, task):
        with self._lock:
            self._running[host.get_name()] = time.monotonic()
            if self._task is not None and len(self._running) == 1:
                self._next_line = time.monotonic() + self._interval()
        super().v2_runner_on_start(host, task)

    def v2_runner_on_ok(self, result):
        elapsed = self._host_done(result)
        super().v2_runner_on_ok(result)
        self._summarise(result, elapsed)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._host_done(result)
        super().v2_runner_on_failed(result, ignore_errors=ignore_errors)

    def v2_runner_on_skipped(self, result):
        self._host_done(result)
        super().v2_runner_on_skipped(result)

    def v2_runner_on_unreachable(self, result):
        self._host_done(result)
        super().v2_runner_on_unreachable(result)

    # The ticker says what a running async task is doing; the poll lines themselves are noise.
    def v2_runner_on_async_poll(self, result):
        return None

    def v2_runner_on_async_ok(self, result):
        return None

    def v2_playbook_on_stats(self, stats):
        with self._lock:
            self._task = None
            self._running = {}
        self._stop.set()
        super().v2_playbook_on_stats(stats)
