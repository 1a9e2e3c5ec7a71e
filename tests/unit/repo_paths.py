"""Where the repository and its test fixtures are, for tests at any depth under tests/unit."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
