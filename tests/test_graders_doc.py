"""docs/graders.md names, per exercise and kind of mistake, the tests that cover it: each
named test exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_test_the_graders_table_names_exists():
    named = set(re.findall(r"`(test_\w+)`", (ROOT / "docs" / "graders.md").read_text()))
    defined = {
        name
        for path in (ROOT / "tests").glob("test_*.py")
        for name in re.findall(r"^def (test_\w+)\(", path.read_text(), flags=re.M)
    }
    assert len(named) > 100  # the table itself, not an empty page
    assert sorted(named - defined) == []
