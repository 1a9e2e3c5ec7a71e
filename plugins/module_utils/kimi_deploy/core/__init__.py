"""Pure logic (sizing, KV, sharding, diagnosis, acceptance verdicts, ledger rows): no network, subprocess or threads."""
