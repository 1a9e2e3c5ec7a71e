"""The pure library of kimi_deploy: typed values and the arithmetic on them, no I/O, no Ansible."""
