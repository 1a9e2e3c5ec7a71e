"""kimi_vllm_log_facts: the journal of the unit's last start is read on the host; only the figures come back."""

from __future__ import annotations

from unittest import mock

import kimi_vllm_log_facts
from module_harness import run_module
from repo_paths import FIXTURES

LOG = (FIXTURES / "vllm-memory-logs" / "v0.32-info.log").read_text()


def test_reads_the_last_start_of_the_unit_and_returns_only_figures():
    calls = []

    def run_command(self, argv, **kwargs):
        calls.append(argv)
        if argv[0] == "systemctl":  # systemctl show <unit> -p InvocationID
            return 0, "InvocationID=4f1c0ffee\n", ""
        return 0, LOG, ""

    with mock.patch("ansible.module_utils.basic.AnsibleModule.run_command", run_command):
        result = run_module(kimi_vllm_log_facts, {"unit": "kimi-vllm"}, check_mode=True)
    assert result["changed"] is False and result["lines"] == len(LOG.splitlines())
    assert calls[0] == ["systemctl", "show", "kimi-vllm.service", "-p", "InvocationID"]
    assert calls[1] == ["journalctl", "-o", "cat", "--no-pager", "_SYSTEMD_INVOCATION_ID=4f1c0ffee"]
    assert result["facts"]["kv_tokens"] == 1_612_800 and result["facts"]["profiling"] == "measured"
    assert "journal" not in result and LOG not in str(result)


def test_a_unit_that_never_started_gives_no_figures():
    with mock.patch("ansible.module_utils.basic.AnsibleModule.run_command", lambda self, argv, **kw: (0, "\n", "")):
        result = run_module(kimi_vllm_log_facts, {"unit": "kimi-vllm"})
    assert result["facts"]["items"] == {} and result["facts"]["profiling"] == "none" and result["lines"] == 0


def test_a_systemd_that_cannot_be_asked_gives_no_figures():
    with mock.patch("ansible.module_utils.basic.AnsibleModule.run_command",
                    lambda self, argv, **kw: (1, "", "Failed to connect to bus") if argv[0] == "systemctl"
                    else (0, LOG, "")):
        result = run_module(kimi_vllm_log_facts, {"unit": "kimi-vllm"})
    assert not result.get("failed") and result["lines"] == 0 and result["facts"]["profiling"] == "none"
