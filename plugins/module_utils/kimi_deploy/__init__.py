"""Pure logic of the Kimi K3 / vLLM deployer.

Nothing in this package imports Ansible: modules in ``plugins/modules`` are thin wrappers around it,
and ``tests/unit`` imports it directly with plain pytest. It must run on the oldest python3 found
on GPU hosts (3.10), with the standard library only, unless a module says otherwise.
"""
