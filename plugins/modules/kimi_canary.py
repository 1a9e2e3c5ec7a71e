#!/usr/bin/python
# Copyright: kimi-deploy contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

DOCUMENTATION = r"""
---
module: kimi_canary
short_description: Promote or roll back a canary release by its live error rate and TTFT p95 against the other replicas'
description:
  - Compares what a canary replica served over a window with what the other replicas served over the same window,
    from two scrapes of each one's vLLM C(/metrics) (start and end of the window).
  - Requests and 5xx come from C(http_requests_total) on the C(/v1/) routes, engine errors from
    C(vllm:request_success_total{finished_reason="error"}), TTFT p95 from the deltas of
    C(vllm:time_to_first_token_seconds_bucket) (C(module_utils/kimi_deploy/core/canary.py) says how).
  - Either give the scrapes (O(canary) and O(others), each C({start, end}) texts), or the URLs (O(canary_url) and
    O(other_urls)), which the module scrapes, waits O(window_s), and scrapes again.
  - A window with fewer than O(min_requests) may be extended once, up to O(max_window_s) in all, by the time the
    requests counted so far say it needs (RV(extend_s)). With URLs the module waits that long itself and judges
    the whole window again; with scrapes the caller does (O(held_s) is how long its window lasted).
  - Read-only; runs in check mode as in a real run (with URLs, it waits the window there too).
version_added: "0.1.0"
author: kimi-deploy contributors (!UNKNOWN)
options:
  canary:
    description: The canary's scrapes, C({start, end}) (the C(/metrics) texts).
    type: dict
  others:
    description: The other replicas' scrapes, one C({start, end}) each; pooled.
    type: list
    elements: dict
  canary_url:
    description: The canary's C(/metrics) URL.
    type: str
  other_urls:
    description: The other replicas' C(/metrics) URLs.
    type: list
    elements: str
  window_s:
    description: With URLs, seconds between the two scrapes.
    type: float
    default: 600
  validate_certs:
    description: With HTTPS URLs, check the server's certificate.
    type: bool
    default: true
  ca_path:
    description: With HTTPS URLs, the CA to check it against (e.g. the front doors' CA).
    type: path
  max_error_rate_ratio:
    description: Roll back when the canary's error rate is above the others' times this (and above O(error_rate_floor)).
    type: float
    default: 2.0
  error_rate_floor:
    description: An error rate at or below this fraction is never a reason to roll back.
    type: float
    default: 0.01
  max_ttft_p95_ratio:
    description: Roll back when the canary's TTFT p95 is above the others' times this (and above O(ttft_p95_floor_ms)).
    type: float
    default: 1.5
  ttft_p95_floor_ms:
    description: A TTFT p95 at or below this is never a reason to roll back.
    type: float
    default: 100
  min_requests:
    description:
      - Fewer requests than this on the canary, or on the others, is inconclusive.
      - At least 20, since a TTFT p95 of fewer requests is the slowest of them.
    type: int
    default: 50
  held_s:
    description: With scrapes, how long the window between them lasted (for RV(extend_s)); with URLs, O(window_s).
    type: float
    default: 0
  max_window_s:
    description:
      - How long the window may last in all when too few requests came (RV(extend_s)); at or below the window's
        length, never extended.
    type: float
    default: 0
  inconclusive:
    description: The verdict when the window was inconclusive.
    type: str
    choices: [promote, rollback]
    default: rollback
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - kimi.deploy.kimi.CHECK_MODE_NO_DIFF
"""

EXAMPLES = r"""
- name: Judge the canary over ten minutes of live traffic
  kimi_canary:
    canary_url: "https://{{ inventory_hostname }}:8443/metrics"
    other_urls: ["https://h200-b-1:8443/metrics", "https://h200-c-1:8443/metrics"]
    window_s: 600
    ca_path: /etc/kimi/ca.pem
  register: kimi_canary_result

- name: Judge it from scrapes taken elsewhere
  kimi_canary:
    canary: {start: "{{ canary_start.content }}", end: "{{ canary_end.content }}"}
    others: [{start: "{{ other_start.content }}", end: "{{ other_end.content }}"}]
    inconclusive: promote
"""

RETURN = r"""
verdict:
  description: promote or rollback.
  returned: always
  type: str
  sample: rollback
inconclusive:
  description: Too few requests to compare; the verdict is then O(inconclusive)'s.
  returned: always
  type: bool
extend_s:
  description:
    - When inconclusive and O(max_window_s) leaves time, the seconds to go on for before judging the whole window
      again (the rate so far, with a margin); else 0. With URLs the module has already done so once.
  returned: always
  type: int
reason:
  description: Which, and why, in one sentence with the figures.
  returned: always
  type: str
  sample: "rollback: error rate 10.00% (10/100) against the others' 0.00% (0/400, allowed 1.00%)"
figures:
  description: C(canary) and C(others) (requests, errors, server_errors, engine_errors, error_rate, ttft_p95_ms,
    ttft_observations; others also C(replicas)) and the C(thresholds) applied.
  returned: always
  type: dict
"""

import time

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.urls import open_url
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.canary import verdict
from ansible_collections.kimi.deploy.plugins.module_utils.kimi_deploy.core.errors import KimiDeployError

THRESHOLDS = ("max_error_rate_ratio", "error_rate_floor", "max_ttft_p95_ratio", "ttft_p95_floor_ms", "min_requests",
              "inconclusive")


def scrape(module, url):
    try:
        with open_url(url, timeout=30, validate_certs=module.params["validate_certs"],
                      ca_path=module.params["ca_path"]) as response:
            return response.read().decode("utf-8", errors="replace")
    except Exception as err:  # pylint: disable=broad-except  # urllib, ssl and socket errors alike
        module.fail_json(msg=f"cannot scrape {url}: {err}; is that replica's vLLM (or its front door) serving, "
                             "and its /metrics open to this host?")
    return ""  # pragma: no cover - fail_json exits


def main():
    module = AnsibleModule(
        argument_spec=dict(
            canary=dict(type="dict"),
            others=dict(type="list", elements="dict"),
            canary_url=dict(type="str"),
            other_urls=dict(type="list", elements="str"),
            window_s=dict(type="float", default=600),
            validate_certs=dict(type="bool", default=True),
            ca_path=dict(type="path"),
            max_error_rate_ratio=dict(type="float", default=2.0),
            error_rate_floor=dict(type="float", default=0.01),
            max_ttft_p95_ratio=dict(type="float", default=1.5),
            ttft_p95_floor_ms=dict(type="float", default=100),
            min_requests=dict(type="int", default=50),
            inconclusive=dict(type="str", default="rollback", choices=["promote", "rollback"]),
            held_s=dict(type="float", default=0),
            max_window_s=dict(type="float", default=0),
        ),
        required_one_of=[("canary", "canary_url")],
        mutually_exclusive=[("canary", "canary_url"), ("others", "other_urls")],
        required_together=[("canary", "others"), ("canary_url", "other_urls")],
        supports_check_mode=True,
    )
    p = module.params
    thresholds = {key: p[key] for key in THRESHOLDS}
    if p["canary_url"]:
        urls = [p["canary_url"], *p["other_urls"]]
        starts = [scrape(module, url) for url in urls]
        held_s = max(0.0, p["window_s"])
        time.sleep(held_s)
        answer = judge_since(module, urls, starts, held_s, thresholds)
        if answer["extend_s"]:  # too few requests: once more, as long as the rate so far says it takes
            time.sleep(answer["extend_s"])
            answer = judge_since(module, urls, starts, held_s + answer["extend_s"], thresholds)
        module.exit_json(changed=False, **answer)
    canary, others = p["canary"], p["others"]
    for name, scraped in [("canary", canary)] + [(f"others[{i}]", o) for i, o in enumerate(others)]:
        missing = [key for key in ("start", "end") if not isinstance(scraped.get(key), str)]
        if missing:
            module.fail_json(msg=f"{name} has no {' or '.join(missing)} scrape: give the /metrics text "
                                 "of the start and of the end of the window")
    module.exit_json(changed=False, **judge(module, canary, others, p["held_s"], thresholds))


def judge(module, canary, others, held_s, thresholds):
    try:
        return verdict(canary, others, held_s=held_s, max_window_s=module.params["max_window_s"], **thresholds)
    except KimiDeployError as err:
        module.fail_json(msg=str(err))
    return {}  # pragma: no cover - fail_json exits


def judge_since(module, urls, starts, held_s, thresholds):
    """Scrape every URL again and judge the window since ``starts``."""
    scrapes = [{"start": start, "end": scrape(module, url)} for start, url in zip(starts, urls, strict=True)]
    return judge(module, scrapes[0], scrapes[1:], held_s, thresholds)


if __name__ == "__main__":
    main()
