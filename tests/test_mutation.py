"""tools/mutation.py (`make mutation`): which mutants it runs, and how it counts mutmut's results."""

import json
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import mutation  # noqa: E402

pytest.importorskip("mutmut", reason="mutmut is in the dev extra of the lock: make setup")


def test_a_module_is_named_by_mutmuts_dotted_names_and_nothing_else_is_accepted():
    assert mutation.mutant_pattern("d2lgpu/stream_sim.py") == "d2lgpu.stream_sim.*"
    assert (
        mutation.mutant_pattern("d2lgpu/checks/ch08_streams.py") == "d2lgpu.checks.ch08_streams.*"
    )
    for bad in ("tests/test_grading.py", "d2lgpu/checks", "stream_sim.py"):
        with pytest.raises(ValueError, match="module must be a .py file under d2lgpu/"):
            mutation.mutant_pattern(bad)


def test_exit_codes_are_counted_by_status():
    # mutmut's exit codes: 1 killed by a test, 0 survived, 33 no test calls the function,
    # 36 timed out, None not run yet, -11 segfault (other)
    codes = {"a": 1, "b": 1, "c": 0, "d": 33, "e": 36, "f": None, "g": -11, "h": 37}
    counts = mutation.count_statuses(codes)
    assert [counts[c] for c in mutation.COLUMNS] == [3, 1, 1, 1, 1]  # 37: the type check's kill
    assert counts["not checked"] == 1
    # reached: killed, survived, timed out or other; a time-out counts as found
    assert mutation.score(counts) == pytest.approx((3 + 1) / (3 + 1 + 1 + 1))
    assert mutation.score(mutation.count_statuses({"a": 33, "b": None})) is None
    assert sum(mutation.count_statuses({}).values()) == 0


def test_a_row_shows_the_counts_the_score_and_the_wall_time(tmp_path):
    meta = tmp_path / "d2lgpu" / "grading.py.meta"
    meta.parent.mkdir()
    codes = {f"d2lgpu.grading.x_check__mutmut_{i}": 1 for i in range(9)}
    meta.write_text(json.dumps({"exit_code_by_key": {**codes, "d2lgpu.grading.x_f__mutmut_1": 0}}))
    counts = mutation.read_counts("d2lgpu/grading.py", tmp_path)
    row = mutation.table_row("d2lgpu/grading.py", counts, 90.0)
    assert row == "| `d2lgpu/grading.py` | 9 | 1 | 0 | 0 | 0 | 0 | 90.0% | 1.5 min |"
    assert row.count("|") == mutation.TABLE_HEADER.splitlines()[0].count("|")
    never_run = mutation.read_counts("d2lgpu/stream_sim.py", tmp_path)
    assert mutation.table_row("d2lgpu/stream_sim.py", never_run, None).endswith("| - | - |")


def test_every_module_and_test_file_in_the_table_exists_and_mutmut_mutates_it():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    import fnmatch

    for module, tests in mutation.MODULES.items():
        assert (ROOT / module).is_file(), module
        assert any(fnmatch.fnmatch(module, p) for p in config["only_mutate"]), module
        assert tests and all((ROOT / t).is_file() for t in tests), (module, tests)


def test_bad_arguments_name_the_argument(capsys):
    for argv, named in [
        (["d2lgpu/nope.py"], "MODULE must be one of"),
        (["--max-children", "0"], "--max-children must be at least 1"),
        (["--time-limit", "0"], "--time-limit must be positive"),
    ]:
        with pytest.raises(SystemExit):
            mutation.main(argv)
        assert named in capsys.readouterr().err
