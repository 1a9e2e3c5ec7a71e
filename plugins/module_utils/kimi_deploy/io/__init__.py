"""Side effects: the hub, HTTP clients, hashing of files, NVML, the journal, locks and processes."""
