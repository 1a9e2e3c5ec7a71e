"""The one error type the pure library raises for bad input.

Modules turn it into ``fail_json(msg=str(err))``, so its message must say what is wrong and what
to change, in words an operator can act on.
"""


class KimiDeployError(ValueError):
    """Bad or impossible input, with an actionable message."""
