"""Every unit test may run a module in-process: register the library under its Ansible name first."""

import ansible_module_utils  # noqa: F401  # pylint: disable=unused-import
