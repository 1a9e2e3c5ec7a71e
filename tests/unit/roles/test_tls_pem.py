"""The PEM files the roles write from Vault text or the inventory's files, rendered by Ansible itself.

ansible-core 2.19 keeps the backslash of a ``'\\n'`` written in a template: a PEM joined with one came out as
``-----END CERTIFICATE-----\\n-----BEGIN PRIVATE KEY-----`` on one line, which HAProxy refused ("unable to
load certificate"), found by the demo's first run through its front door. Each PEM variable is rendered with
an ad-hoc ``copy`` (the same module the roles write it with) and read back with openssl.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from haproxy_run import make_certificate
from repo_paths import REPO

# (role, the variable the role writes, the inputs: text variable and file variable of each part in order)
PEMS = [
    ("kimi_frontdoor", "__kimi_frontdoor_tls_pem",
     [("kimi_frontdoor_tls_cert", "kimi_frontdoor_tls_cert_file", "cert.pem"),
      ("kimi_frontdoor_tls_key", "kimi_frontdoor_tls_key_file", "key.pem")]),
    ("kimi_lb", "__kimi_lb_tls_pem",
     [("kimi_lb_tls_cert", "kimi_lb_tls_cert_file", "cert.pem"),
      ("kimi_lb_tls_key", "kimi_lb_tls_key_file", "key.pem")]),
    ("kimi_lb", "__kimi_lb_upstream_ca_pem", [("kimi_lb_upstream_ca", "kimi_lb_upstream_ca_file", "cert.pem")]),
    ("kimi_monitoring", "__kimi_monitoring_frontdoor_ca_pem",
     [("kimi_monitoring_frontdoor_ca", "kimi_monitoring_frontdoor_ca_file", "cert.pem")]),
]


def render_to_file(role: str, variable: str, inputs: dict, out) -> None:
    (out.parent / "inputs.json").write_text(json.dumps(inputs))
    subprocess.run(["ansible", "localhost", "-m", "ansible.builtin.copy", "-a",
                    f"content={{{{ {variable} }}}} dest={out} mode=0600",
                    "-e", f"@{REPO}/roles/{role}/vars/main.yml", "-e", f"@{out.parent}/inputs.json"],
                   cwd=REPO, check=True, capture_output=True, text=True)


def openssl_reads(kind: str, path) -> bool:
    done = subprocess.run(["openssl", kind, "-noout", "-in", str(path)], capture_output=True, check=False)
    return done.returncode == 0


@pytest.mark.parametrize("source", ["vault text", "inventory files"])
@pytest.mark.parametrize(("role", "variable", "parts"), PEMS, ids=[v for _r, v, _p in PEMS])
def test_the_pem_is_its_parts_each_on_its_own_lines(tmp_path, role, variable, parts, source):
    pki = make_certificate(tmp_path)
    inputs = {}
    for text_var, file_var, name in parts:
        by_text = source == "vault text"
        # Vault text often ends without the newline, or with a blank line: trimmed either way.
        inputs[text_var] = (pki / name).read_text().strip() + "\n\n" if by_text else ""
        inputs[file_var] = "" if by_text else str(pki / name)
    out = tmp_path / "out.pem"
    render_to_file(role, variable, inputs, out)

    assert out.read_text() == "".join((pki / name).read_text() for _t, _f, name in parts)
    assert openssl_reads("x509", out)
    if len(parts) == 2:
        assert openssl_reads("pkey", out)
