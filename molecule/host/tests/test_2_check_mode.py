"""check_mode: on a converged host, deploy.yml --check --diff reports no change and touches nothing."""

from kimi_molecule import current_release, main_pid, recap, run_playbook, unit_property


def test_check_diff_on_a_converged_host_reports_no_change(host):
    release, pid = current_release(host), main_pid(host)
    proc = run_playbook("deploy.yml", "-l", "gpu_nodes", "--check", "--diff")
    counts = recap(proc.stdout)
    assert counts["changed"] == 0 and counts["failed"] == 0, proc.stdout[-4000:]
    assert current_release(host) == release and main_pid(host) == pid
    assert unit_property(host, "NRestarts") == "0"


def test_check_mode_predicts_a_new_release_without_making_it(host):
    release = current_release(host)
    before = host.check_output("ls /opt/kimi/releases")
    proc = run_playbook("deploy.yml", "-l", "gpu_nodes", "--check", "--diff", "-e", "kimi_concurrency=3")
    counts = recap(proc.stdout)
    assert counts["failed"] == 0 and counts["changed"] >= 2, proc.stdout[-4000:]
    assert "Create the release" in proc.stdout and "Point current at the new release" in proc.stdout
    assert host.check_output("ls /opt/kimi/releases") == before
    assert current_release(host) == release
