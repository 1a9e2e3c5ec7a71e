"""kimi_deploy_root creates the deploy root's directories with their owners and modes in one call:
on a real filesystem (a temporary root), as root, since it sets owners."""

from __future__ import annotations

import grp
import os
import pwd
import stat

import kimi_deploy_root
import pytest
from module_harness import run_module

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="sets owners: runs as root (as CI does)")


@pytest.fixture
def service_user() -> str:
    """A system user with a group of its own name, as the role's `user` task creates."""
    for name in ("daemon", "bin", "sys"):
        try:
            pwd.getpwnam(name)
            grp.getgrnam(name)
        except KeyError:
            continue
        return name
    pytest.skip("no system user with a group of the same name on this machine")


def _state(path) -> tuple[str, str]:
    st = os.stat(path)
    return f"{stat.S_IMODE(st.st_mode):04o}", pwd.getpwuid(st.st_uid).pw_name


def test_a_fresh_root_gets_every_directory_then_a_second_run_changes_nothing(tmp_path, service_user):
    root = tmp_path / "kimi"
    first = run_module(kimi_deploy_root, {"root": str(root), "service_user": service_user})
    assert first["changed"] is True and not first.get("failed"), first
    assert first["created"] == [d["path"] for d in first["layout"]]
    assert _state(root / "shared" / "secrets") == ("0700", "root")
    assert _state(root / "shared" / "cache") == ("0750", service_user)
    assert grp.getgrgid(os.stat(root / "shared" / "cache").st_gid).gr_name == service_user
    assert {_state(root / sub) for sub in ("releases", "shared/models", "shared/venvs")} == {("0755", "root")}
    second = run_module(kimi_deploy_root, {"root": str(root), "service_user": service_user})
    assert second["changed"] is False and second["created"] == [] and second["corrected"] == [], second


def test_check_mode_says_what_it_would_create_and_creates_nothing(tmp_path, service_user):
    root = tmp_path / "kimi"
    result = run_module(kimi_deploy_root, {"root": str(root), "service_user": service_user}, check_mode=True,
                        diff=True)
    assert result["changed"] is True and len(result["created"]) == 7, result
    assert result["diff"]["before"][str(root / "shared" / "secrets")] == "absent"
    assert not root.exists()


def test_a_loosened_secrets_directory_is_corrected_with_a_diff(tmp_path, service_user):
    root = tmp_path / "kimi"
    run_module(kimi_deploy_root, {"root": str(root), "service_user": service_user})
    secrets = root / "shared" / "secrets"
    secrets.chmod(0o755)
    result = run_module(kimi_deploy_root, {"root": str(root), "service_user": service_user}, diff=True)
    assert result["changed"] is True and result["corrected"] == [str(secrets)], result
    assert result["diff"]["before"][str(secrets)]["mode"] == "0755"
    assert result["diff"]["after"][str(secrets)]["mode"] == "0700"
    assert _state(secrets) == ("0700", "root")


def test_a_file_where_a_directory_belongs_is_refused_by_name(tmp_path, service_user):
    root = tmp_path / "kimi"
    root.mkdir()
    (root / "releases").write_text("not a directory")
    result = run_module(kimi_deploy_root, {"root": str(root), "service_user": service_user})
    assert result.get("failed") and f"{root / 'releases'} exists and is not a directory" in result["msg"], result
    assert not (root / "shared").exists()
