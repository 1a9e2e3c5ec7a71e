"""Pure logic shared by the planner and the acceptance run: no I/O beyond reading model files."""
