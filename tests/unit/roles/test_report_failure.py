"""kimi_deploy report_failure.yml, run as the deploy's rescue runs it: the message names the failed task
and its error (Ansible's ansible_failed_task/ansible_failed_result), the diagnosis and what serves now.
The branches of the message are tested in test_diagnose.py (deploy_failure_message)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from repo_paths import REPO

REPORT_FAILURE = str(REPO / "roles/kimi_deploy/tasks/report_failure.yml")


def test_the_rescue_fails_with_the_message_built_in_python(tmp_path):
    play = [{
        "hosts": "localhost", "connection": "local", "gather_facts": False,
        "vars": {"kimi_release_id": "r2", "kimi_root": "/opt/kimi",
                 "kimi_vllm_diagnosis": {"phase": "load", "cause": "The weights are missing.",
                                         "next_step": "1. Fetch them."},
                 "kimi_release_restored": {"changed": True, "serving": "r1"}},
        "tasks": [{"block": [{"name": "Start the candidate", "ansible.builtin.fail": {"msg": "it broke"}}],
                   "rescue": [{"ansible.builtin.import_tasks": REPORT_FAILURE}]}],
    }]
    (tmp_path / "play.yml").write_text(yaml.safe_dump(play))
    bindir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bindir}:{os.environ.get('PATH', '')}", "ANSIBLE_NOCOLOR": "1",
           "ANSIBLE_CALLBACK_RESULT_FORMAT": "json"}  # the message on one line
    proc = subprocess.run([str(bindir / "ansible-playbook"), "-i", "localhost,", str(tmp_path / "play.yml"),
                           "-e", f"ansible_python_interpreter={sys.executable}"],
                          cwd=REPO, env=env, capture_output=True, text=True, check=False)
    assert proc.returncode != 0
    message = ('Release r2 failed on localhost at \\"Start the candidate\\": it broke. Diagnosis: load phase, '
               "The weights are missing. Next step: 1. Fetch them. Release r1 is serving again. "
               "The failed release stays in /opt/kimi/releases/r2 for inspection.")
    assert message in proc.stdout, proc.stdout[-3000:]
