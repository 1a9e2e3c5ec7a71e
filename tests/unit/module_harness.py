"""Run an Ansible module's ``main()`` in-process and capture its result.

    result = run_module(kimi_gpu_facts, {"gpus_override": [...]}, check_mode=True)
    assert result["changed"] is False

``exit_json`` and ``fail_json`` end the module with ``SystemExit`` after printing the JSON result;
this helper reads that JSON back. ``failed`` is set in the result when the module failed.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout, suppress
from types import ModuleType
from typing import Any

from ansible.module_utils import _internal as ansible_internal
from ansible.module_utils.testing import patch_module_args


def run_module(module: ModuleType, args: dict[str, Any], *, check_mode: bool = False,
               diff: bool = False) -> dict[str, Any]:
    full_args = dict(args)
    full_args["_ansible_check_mode"] = check_mode
    full_args["_ansible_diff"] = diff
    out = io.StringIO()
    # A module runs on the host, where warnings travel in its result. Tests that load controller
    # code (templates, callbacks) flip ansible into controller mode, where they go to the display.
    was_controller, ansible_internal.is_controller = ansible_internal.is_controller, False
    try:
        with patch_module_args(full_args), redirect_stdout(out), suppress(SystemExit):
            module.main()
    finally:
        ansible_internal.is_controller = was_controller
    text = out.getvalue()
    try:
        return json.loads(text[text.index("{"):])
    except ValueError as err:  # pragma: no cover - a module that prints nothing is a bug
        raise AssertionError(f"module printed no JSON result: {text!r}") from err
