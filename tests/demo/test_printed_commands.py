"""The newcomer's path, as a test: the README's commands as written, then every command the demo prints.

Each command runs the way it is typed into a new shell: ``bash -c '<command>'`` from the repository
root with only ``PATH`` (the system's directories, without ``sudo``) and ``HOME`` set, no activated venv.
The printed commands come from ``scripts/demo.sh commands``, the function that prints them at the end of
the demo, and run in the order printed (the last removes the demo host). Wall times are written to
``$KIMI_CACHE/demo/printed-commands.tsv`` and shown at the end, each command's output in
``$KIMI_CACHE/demo/printed-commands/<label>.log``.

Slow (a demo run, a deploy, a rollback, a tuning run: about 8 minutes): the stage ``demo`` of
``scripts/test.sh`` runs it (KIMI_TEST_DEMO=1), as root, with podman; the default run (CI) includes it,
after the single-host scenario in the same lane. A demo host left running by a failed command is
removed at the end, so it does not load the machine for the rest of the run.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PATH = ("/usr/sbin", "/usr/bin", "/sbin", "/bin")
TIMINGS = Path(os.environ.get("KIMI_CACHE", "/var/cache/kimi-deploy")) / "demo" / "printed-commands.tsv"
ENABLED = os.environ.get("KIMI_TEST_DEMO") == "1"

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not ENABLED, reason="the demo test runs with scripts/test.sh demo (KIMI_TEST_DEMO=1)"),
]


def clean_path(tmp_root: Path) -> str:
    """The system's PATH, with a stand-in directory for any that holds sudo (a machine without sudo)."""
    dirs = []
    for d in SYSTEM_PATH:
        if not (Path(d) / "sudo").exists():
            dirs.append(d)
            continue
        shadow = tmp_root / d.strip("/").replace("/", "_")
        shadow.mkdir(parents=True, exist_ok=True)
        tmp_root.chmod(0o755)
        for entry in Path(d).iterdir():
            if entry.name != "sudo" and not (shadow / entry.name).exists():
                (shadow / entry.name).symlink_to(entry)
        dirs.append(str(shadow))
    return ":".join(dirs)


@pytest.fixture(scope="module")
def shared_tmp():
    """A temporary directory other users can read (the not-root tests run as nobody)."""
    path = Path(tempfile.mkdtemp(prefix="kimi-demo-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module", autouse=True)
def no_demo_host_left():
    """After the last test, the demo host is gone even when a command before ``destroy`` failed."""
    yield
    if subprocess.run(["podman", "container", "exists", "kimi-demo-1"], check=False).returncode == 0:
        subprocess.run([str(REPO_ROOT / "scripts/demo.sh"), "destroy"], check=False,
                       env={"PATH": ":".join(SYSTEM_PATH)})


@pytest.fixture(scope="module")
def new_shell(shared_tmp):
    """run(command) -> (rc, output, seconds), as if pasted into a new shell at the repository root."""
    env = {"PATH": clean_path(shared_tmp / "path"), "HOME": pwd.getpwuid(os.getuid()).pw_dir}

    def run(command: str, timeout: float = 900) -> tuple[int, str, float]:
        start = time.monotonic()
        proc = subprocess.run(["bash", "-c", command], cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=timeout, check=False)
        return proc.returncode, proc.stdout, time.monotonic() - start

    return run


def parse_commands(text: str) -> list[tuple[str, str]]:
    """(label, command) per line of ``label: command``; a trailing backslash continues the command."""
    commands: list[tuple[str, str]] = []
    pending: list[str] | None = None
    label = ""
    for line in text.splitlines():
        if pending is not None:
            pending.append(line.strip())
        else:
            m = re.match(r"^\s+([a-z][a-z ]*):\s+(\S.*)$", line)
            if not m:
                continue
            label, pending = m.group(1), [m.group(2).strip()]
        if pending[-1].endswith("\\"):
            pending[-1] = pending[-1][:-1].rstrip()
            continue
        commands.append((label, " ".join(pending)))
        pending = None
    return commands


def printed_block() -> str:
    return subprocess.run([str(REPO_ROOT / "scripts/demo.sh"), "commands"], capture_output=True, text=True,
                          check=True, env={"PATH": ":".join(SYSTEM_PATH)}).stdout


def readme_commands() -> list[str]:
    text = (REPO_ROOT / "README.md").read_text()
    block = text.split("## Two commands", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].strip() for line in block.strip().splitlines()]


PRINTED = parse_commands(printed_block()) if ENABLED else []


def record(label: str, command: str, seconds: float, rc: int, output: str) -> None:
    """Append the wall time to TIMINGS and keep the output next to it (printed-commands/<label>.log)."""
    logs = TIMINGS.with_suffix("")
    logs.mkdir(parents=True, exist_ok=True)
    (logs / f"{label.replace(' ', '-')}.log").write_text(f"$ {command}\n{output}")
    with TIMINGS.open("a") as fh:
        fh.write(f"{seconds:.1f}\t{rc}\t{label}\t{command}\n")


def test_readme_commands_need_no_sudo():
    assert readme_commands() == ["scripts/demo.sh", "scripts/test.sh"]


@pytest.fixture(scope="module")
def readable_scripts(shared_tmp) -> Path:
    """A copy of scripts/ that another user can read: a clone may sit in a root-only directory (CI's
    clone in a mktemp directory, mode 0700), which nobody could enter to run the scripts at all. What is
    tested, the scripts' first step (require_root), needs nothing else of the tree."""
    scripts = shared_tmp / "repo" / "scripts"
    shutil.copytree(REPO_ROOT / "scripts", scripts)
    for path in (shared_tmp / "repo", *scripts.parent.rglob("*")):
        path.chmod(0o755)
    return scripts


def test_not_root_without_sudo_says_the_one_line_to_type(new_shell, readable_scripts):
    rc, out, _unused = new_shell(f"cd {readable_scripts.parent} && "
                                 "setpriv --reuid=65534 --regid=65534 --clear-groups scripts/demo.sh rollback -v")
    assert rc == 1, out
    assert f"type: su root -c '{readable_scripts}/demo.sh rollback -v'" in out


def test_not_root_with_sudo_runs_itself_through_sudo(new_shell, shared_tmp, readable_scripts):
    fake = shared_tmp / "fake-sudo"
    fake.mkdir()
    (fake / "sudo").write_text('#!/bin/sh\necho "sudo $*"\n')
    (fake / "sudo").chmod(0o755)
    rc, out, _unused = new_shell(f"cd {readable_scripts.parent} && PATH={fake}:$PATH "
                                 "setpriv --reuid=65534 --regid=65534 --clear-groups scripts/test.sh lint unit")
    assert rc == 0, out
    assert out.strip().endswith(f"-- {readable_scripts}/test.sh lint unit"), out


def test_the_readme_first_command_deploys_and_prints_the_follow_up_commands(new_shell):
    TIMINGS.unlink(missing_ok=True)
    command = readme_commands()[0]
    rc, out, seconds = new_shell(command)
    record("the demo (README)", command, seconds, rc, out)
    assert rc == 0, out[-6000:]
    assert "What just happened:" in out
    assert printed_block() in out, "the demo's closing lines are not what scripts/demo.sh commands prints"


# What a printed command must say on the demo host, beyond succeeding. Diagnose runs on a host that has
# served only the acceptance suite (whose bad-input probes answer 4xx on purpose) and one chat completion:
# both its answers say healthy, with no client errors.
EXPECTED_OUTPUT = {
    "diagnose": ("health: healthy; client errors outside the acceptance probes: none",
                 "phase: none (no_error_serving)"),
}


@pytest.mark.parametrize(("label", "command"), PRINTED, ids=[label for label, _unused in PRINTED])
def test_printed_command_works_in_a_new_shell(new_shell, label, command):
    rc, out, seconds = new_shell(command)
    record(label, command, seconds, rc, out)
    assert rc == 0, f"{command} failed ({rc}):\n{out[-6000:]}"
    for expected in EXPECTED_OUTPUT.get(label, ()):
        assert expected in out, f"{command} does not say {expected!r}:\n{out[-6000:]}"


def test_wall_times(capsys):
    with capsys.disabled():
        print(f"\nWall time of each command, from a new shell ({TIMINGS}):")
        for line in TIMINGS.read_text().splitlines():
            seconds, rc, label, command = line.split("\t", 3)
            print(f"  {float(seconds):6.1f} s  rc {rc}  {label}: {command}")
