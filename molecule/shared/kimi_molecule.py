"""What the molecule verifiers share: read the deployed state of a host, run the real playbooks.

Every check reads the host itself (systemd, /proc, the release tree, HTTP on the host), never a
value the playbook reported about itself.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROOT = "/opt/kimi"
UNIT = "kimi-vllm.service"
API_KEY = "molecule-test-key"
SERVED = "tiny-llama"


def current_release(host) -> str:
    target = host.file(f"{ROOT}/current").linked_to
    assert target.startswith(f"{ROOT}/releases/"), target
    return target.rsplit("/", 1)[1]


def release_json(host, release_id: str) -> dict:
    return json.loads(host.file(f"{ROOT}/releases/{release_id}/release.json").content_string)


def unit_property(host, name: str) -> str:
    return host.check_output(f"systemctl show -p {name} --value {UNIT}")


def main_pid(host) -> int:
    return int(unit_property(host, "MainPID"))


def process_args(host, pid: int) -> list[str]:
    raw = host.check_output(f"tr '\\0' '\\n' < /proc/{pid}/cmdline")
    return raw.splitlines()


def flag_value(args: list[str], flag: str) -> str:
    return args[args.index(flag) + 1]


def api(host, path: str, payload: dict | None = None, key: str = API_KEY) -> tuple[int, dict]:
    """Call the server from inside the host, as a local client would."""
    cmd = ["curl", "-s", "-o", "/tmp/molecule-body", "-w", "%{http_code}", "-m", "120",
           f"http://127.0.0.1:8000{path}"]
    if key:
        cmd += ["-H", f"Authorization: Bearer {key}"]
    if payload is not None:
        cmd += ["-H", "Content-Type: application/json", "-d", json.dumps(payload)]
    answer = host.run(" ".join(shlex.quote(c) for c in cmd))
    if answer.rc != 0:  # nothing listening (a restart in progress): curl exits non-zero, status 000
        return 0, {"curl_exit": answer.rc}
    status = int(answer.stdout)
    body = host.file("/tmp/molecule-body").content_string
    try:
        return status, json.loads(body)
    except ValueError:
        return status, {"raw": body}


def run_playbook(playbook: str, *args: str, check: bool = True,
                 inventory: str | Path = "") -> subprocess.CompletedProcess:
    """ansible-playbook PLAYBOOK against this scenario's inventory (or ``inventory``), as an operator runs it."""
    inventory = inventory or os.environ["MOLECULE_INVENTORY_FILE"]
    cmd = ["ansible-playbook", str(REPO / playbook), "-i", str(inventory), *args]
    # One stream, as an operator reads it: this Ansible prints task errors on stderr. No colour:
    # molecule forces it, and the recap's counters would then start with escape codes.
    env = {k: v for k, v in os.environ.items() if k != "ANSIBLE_FORCE_COLOR"} | {"ANSIBLE_NOCOLOR": "1"}
    started = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO, check=False,
                          env=env)
    _record_playbook_run(playbook, args, proc.returncode, time.monotonic() - started, proc.stdout)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-8000:]}")
    return proc


def said(proc: subprocess.CompletedProcess) -> str:
    """What ansible-playbook printed, on one line. The callback folds a long message: a plain or
    single-quoted one at a space, a double-quoted one (YAML picks it for a message with a tab or a
    control character, which a journal excerpt can bring) with a backslash at the line's end and an
    escaped space after the next line's indent; both folds are undone, then the whitespace joined."""
    unfolded = re.sub(r"\\\n\s*(?:\\(?= ))?", "", proc.stdout)
    return " ".join(unfolded.split())


def slowest_tasks(output: str, count: int = 4) -> list[tuple[str, float]]:
    """The slowest tasks of a run, from the TASKS RECAP that ansible.posix.profile_tasks prints
    (the callback may wrap a task's line; it is joined back)."""
    recap_text = output.rsplit("TASKS RECAP", 1)[-1] if "TASKS RECAP" in output else ""
    joined = " ".join(recap_text.split())
    found = re.findall(r"([A-Za-z][^=]*?) -+ ([0-9]+\.[0-9]+)s", joined.split("=" * 20, 1)[-1])
    return sorted(((name.strip(), float(secs)) for name, secs in found), key=lambda item: -item[1])[:count]


def _record_playbook_run(playbook: str, args: tuple[str, ...], returncode: int, seconds: float, output: str) -> None:
    """One line per playbook run in $KIMI_TEST_PLAYBOOK_RUNS: where a scenario's time goes (the test,
    the command, its exit, seconds and its slowest tasks); scripts/test.sh prints the longest."""
    path = os.environ.get("KIMI_TEST_PLAYBOOK_RUNS")
    if path:
        test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0].rsplit("::", 1)[-1]
        tasks = "; ".join(f"{name.split(' : ')[-1][:48]} {secs:.0f}s" for name, secs in slowest_tasks(output))
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"{seconds:.1f}\t{returncode}\t{test}\t{playbook} {' '.join(args)}\t{tasks}\n")


def recap(output: str) -> dict[str, int]:
    """The counters of the PLAY RECAP line of a one-host run."""
    line = next(ln for ln in reversed(output.splitlines()) if " ok=" in ln and "changed=" in ln)
    return {k: int(v) for k, v in (part.split("=") for part in line.split(":", 1)[1].split())}


def record_timing(name: str, seconds: float) -> None:
    """Append a measured duration to $KIMI_TEST_TIMINGS (scripts/test.sh prints them at the end)."""
    path = os.environ.get("KIMI_TEST_TIMINGS")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"{name}\t{seconds:.1f}\n")


def concurrency_of(host, release: str) -> str:
    """The kimi_concurrency that made ``release`` (its plan's max_num_seqs): deploying with it again
    makes the same release, so a test can re-run without a new release and a vLLM restart."""
    return str(release_json(host, release).get("inputs", {}).get("plan", {}).get("max_num_seqs", ""))


def healthy(host) -> bool:
    status, _unused = api(host, "/v1/models")
    return status == 200


def wait_until(predicate, timeout_s: float, interval_s: float = 2.0) -> float:
    """Poll ``predicate`` until true; return the seconds it took, or fail."""
    import time

    start = time.monotonic()
    while time.monotonic() - start < timeout_s:
        if predicate():
            return time.monotonic() - start
        time.sleep(interval_s)
    raise AssertionError(f"not true within {timeout_s:.0f} s: {predicate.__doc__ or predicate}")
