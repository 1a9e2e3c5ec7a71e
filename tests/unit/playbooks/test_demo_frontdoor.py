"""The demo serves through its authenticated entry, with its own CA.

`scripts/demo.sh tls` (called by every deploy) makes the demo's CA once and a certificate for the demo host,
root-only under $KIMI_CACHE/demo/tls, and prints the https endpoint and how to trust the CA; the demo inventory
turns the front door on with those files and the demo's one API key. Real openssl, real Ansible rendering.
"""

from __future__ import annotations

import os
import subprocess

import pytest
from demo_script import demo, demo_inventory_render

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="scripts/demo.sh runs as root (it re-runs itself with sudo)")

TLS_FILES = ("ca.pem", "ca.key", "server.pem", "server.key")


def openssl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["openssl", *args], capture_output=True, text=True, check=False)


def cert_text(path) -> str:
    return openssl("x509", "-noout", "-text", "-in", str(path)).stdout


def test_the_demo_makes_its_ca_and_a_certificate_for_its_host_once(tmp_path):
    tls = tmp_path / "demo/tls"
    printed = demo(tmp_path, "tls")

    assert "https://10.89.60.11:8443/v1" in printed
    assert f"curl --cacert {tls}/ca.pem" in printed
    assert f"cp {tls}/ca.pem /usr/local/share/ca-certificates/" in printed and "update-ca-certificates" in printed
    for name in TLS_FILES:
        assert (tls / name).stat().st_mode & 0o777 == 0o600, name
    assert tls.stat().st_mode & 0o777 == 0o700
    verified = openssl("verify", "-CAfile", str(tls / "ca.pem"), str(tls / "server.pem"))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    text = cert_text(tls / "server.pem")
    assert "IP Address:10.89.60.11, DNS:kimi-demo-1" in text and "TLS Web Server Authentication" in text
    assert "CA:TRUE" in cert_text(tls / "ca.pem")

    before = {name: (tls / name).read_bytes() for name in TLS_FILES}
    demo(tmp_path, "tls")
    assert {name: (tls / name).read_bytes() for name in TLS_FILES} == before  # nothing made again


@pytest.mark.parametrize("stale", ["another address", "another CA", "missing"])
def test_the_certificate_is_made_again_when_it_does_not_serve_the_host(tmp_path, stale):
    tls = tmp_path / "demo/tls"
    demo(tmp_path, "tls")
    ca = (tls / "ca.pem").read_bytes()
    if stale == "missing":
        (tls / "server.pem").unlink()
    else:
        # One for 10.89.60.99 signed by the demo's CA, or one for the right address that signs itself.
        by_demo_ca = ["-CA", str(tls / "ca.pem"), "-CAkey", str(tls / "ca.key")]
        address, signer = {"another address": ("10.89.60.99", by_demo_ca), "another CA": ("10.89.60.11", [])}[stale]
        made = openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                       "-days", "30", "-subj", "/CN=stale", "-keyout", str(tls / "server.key"),
                       "-out", str(tls / "server.pem"), "-addext", f"subjectAltName=IP:{address}", *signer)
        assert made.returncode == 0, made.stderr
    demo(tmp_path, "tls")

    assert (tls / "ca.pem").read_bytes() == ca  # the CA users trust stays
    assert openssl("verify", "-CAfile", str(tls / "ca.pem"), str(tls / "server.pem")).returncode == 0
    assert "IP Address:10.89.60.11, DNS:kimi-demo-1" in cert_text(tls / "server.pem")


def test_the_demo_inventory_serves_through_the_entry_with_the_demo_files_and_key(tmp_path):
    demo(tmp_path, "tls")
    (tmp_path / "demo/api-key").write_text("demo-key-123\n")
    rendered = demo_inventory_render(
        tmp_path,
        '{"on": kimi_frontdoor_enabled, "tls": kimi_frontdoor_tls | default(true), '
        '"cert": kimi_frontdoor_tls_cert_file, "key": kimi_frontdoor_tls_key_file, '
        '"cert_text": lookup("ansible.builtin.file", kimi_frontdoor_tls_cert_file), '
        '"clients": kimi_frontdoor_api_keys, "vllm_key": kimi_api_key, '
        '"entry": kimi_acceptance_entry_url, "entry_ca": kimi_acceptance_entry_ca_file}',
        KIMI_API_KEY="")

    tls = tmp_path / "demo/tls"
    assert rendered == {
        "on": True, "tls": True,
        "cert": f"{tls}/server.pem", "key": f"{tls}/server.key",
        "cert_text": (tls / "server.pem").read_text().strip(),
        # One key for the user: the entry's only client key is the key vLLM keeps behind it.
        "clients": [{"name": "demo", "key": "demo-key-123", "not_after": ""}], "vllm_key": "demo-key-123",
        "entry": "https://10.89.60.11:8443",
        "entry_ca": "/usr/local/share/ca-certificates/kimi-demo-ca.crt",
    }
