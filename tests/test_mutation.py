"""tools/mutation.py (`make mutation`): which mutants it runs, and how it counts mutmut's results."""

import json
import os
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
pytest.importorskip("mutmut", reason="mutmut is in the dev extra of the lock: make setup")
pytest.importorskip("libcst", reason="libcst is in the dev extra of the lock: make setup")
import mutation  # noqa: E402
import mutation_counts  # noqa: E402


def test_a_module_is_named_by_mutmuts_dotted_names_and_nothing_else_is_accepted():
    assert mutation_counts.mutant_pattern("d2lgpu/stream_sim.py") == "d2lgpu.stream_sim.*"
    assert (
        mutation_counts.mutant_pattern("d2lgpu/checks/ch08_streams.py")
        == "d2lgpu.checks.ch08_streams.*"
    )
    for bad in ("tests/test_grading.py", "d2lgpu/checks", "stream_sim.py", "tools", "tools/x.sh"):
        with pytest.raises(ValueError, match="module must be a .py file under d2lgpu/ or tools/"):
            mutation_counts.mutant_pattern(bad)


def test_a_tool_is_named_as_its_tests_import_it_so_that_its_mutants_reach_them():
    # tests put tools/ on sys.path and `import work_copies`: the functions' module is work_copies
    assert mutation_counts.mutant_pattern("tools/work_copies.py") == "work_copies.*"
    assert mutation_counts.mutant_module("tools/setup_cell.py") == "setup_cell"
    import work_copies

    assert work_copies.sync_work.__module__ == mutation_counts.mutant_module("tools/work_copies.py")


def test_in_the_run_mutmut_names_a_tools_mutant_by_that_module_and_a_package_one_by_its_path():
    from mutmut.utils import format_utils

    by_path = format_utils.get_mutant_name
    try:
        mutation._name_tools_mutants_by_their_module()
        from mutmut.mutation import file_mutation

        for name in (format_utils.get_mutant_name, file_mutation.get_mutant_name):
            assert name(Path("tools/work_copies.py"), "x_sync_work") == "work_copies.x_sync_work"
            assert name(Path("d2lgpu/hardware.py"), "x_lookup") == "d2lgpu.hardware.x_lookup"
    finally:
        import mutmut.__main__ as mutmut_main
        from mutmut.mutation import file_mutation

        for holder in (format_utils, file_mutation, mutmut_main):
            holder.get_mutant_name = by_path


def test_exit_codes_are_counted_by_status():
    # mutmut's exit codes: 1 killed by a test, 0 survived, 33 no test calls the function,
    # 36 timed out, None not run yet, -11 segfault (other)
    codes = {"a": 1, "b": 1, "c": 0, "d": 33, "e": 36, "f": None, "g": -11, "h": 37}
    counts = mutation_counts.count_statuses(codes)
    assert [counts[c] for c in mutation_counts.COLUMNS] == [
        3,
        1,
        1,
        1,
        1,
    ]  # 37: the type check's kill
    assert counts["not checked"] == 1
    # reached: killed, survived, timed out or other; a time-out counts as found
    assert mutation_counts.score(counts) == pytest.approx((3 + 1) / (3 + 1 + 1 + 1))
    assert mutation_counts.score(mutation_counts.count_statuses({"a": 33, "b": None})) is None
    assert sum(mutation_counts.count_statuses({}).values()) == 0


def test_a_row_shows_the_counts_the_score_and_the_wall_time(tmp_path):
    meta = tmp_path / "d2lgpu" / "grading.py.meta"
    meta.parent.mkdir()
    codes = {f"d2lgpu.grading.x_check__mutmut_{i}": 1 for i in range(9)}
    meta.write_text(json.dumps({"exit_code_by_key": {**codes, "d2lgpu.grading.x_f__mutmut_1": 0}}))
    counts = mutation_counts.read_counts("d2lgpu/grading.py", tmp_path)
    row = mutation_counts.table_row("d2lgpu/grading.py", counts, 90.0)
    assert row == "| `d2lgpu/grading.py` | 9 | 1 | 0 | 0 | 0 | 0 | 90.0% | 1.5 min |"
    assert row.count("|") == mutation_counts.TABLE_HEADER.splitlines()[0].count("|")
    never_run = mutation_counts.read_counts("d2lgpu/stream_sim.py", tmp_path)
    assert mutation_counts.table_row("d2lgpu/stream_sim.py", never_run, None).endswith("| - | - |")


def test_some_functions_of_a_module_are_run_and_counted_alone(tmp_path, monkeypatch):
    module = "d2lgpu/checks/ch10_ddp_by_hand.py"
    assert mutation_counts.mutant_patterns(module) == ["d2lgpu.checks.ch10_ddp_by_hand.*"]
    assert mutation_counts.mutant_patterns(module, ["check_shard_optimizer", "Job.run"]) == [
        "d2lgpu.checks.ch10_ddp_by_hand.x_check_shard_optimizer__mutmut_*",
        "d2lgpu.checks.ch10_ddp_by_hand.xǁJobǁrun__mutmut_*",
    ]
    with pytest.raises(ValueError, match=r"functions must be names .*\['check\*'\]"):
        mutation_counts.mutant_patterns(module, ["check*"])
    meta = tmp_path / "d2lgpu" / "checks" / "ch10_ddp_by_hand.py.meta"
    meta.parent.mkdir(parents=True)
    prefix = "d2lgpu.checks.ch10_ddp_by_hand."
    codes = {prefix + "x_check__mutmut_1": 0, prefix + "x_check_ddp__mutmut_2": 1}
    codes |= {prefix + "xǁJobǁrun__mutmut_1": None, prefix + "xǁJobǁrun_all__mutmut_1": 0}
    meta.write_text(json.dumps({"exit_code_by_key": codes}))
    counts = mutation_counts.read_counts(module, tmp_path, ["check", "Job.run"])
    assert (counts["survived"], counts["not checked"], sum(counts.values())) == (1, 1, 2)
    assert sum(mutation_counts.read_counts(module, tmp_path).values()) == 4
    started = []

    class Child:
        pid, returncode = 0, 0

        def __init__(self, command, **kwargs):
            started.append(command)

        def wait(self, timeout=None):
            return 0

    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    monkeypatch.setattr(mutation.subprocess, "Popen", Child)
    mutation.run_module(module, 1, 60, tmp_path / "x.log", ["check", "Job.run"])
    assert started[0][-3:] == [module, "--functions", "check,Job.run"]
    ran = []
    monkeypatch.setattr(mutation, "run_one", lambda *args: ran.append(args))
    monkeypatch.chdir(tmp_path)  # main() moves to ROOT, as mutmut needs; the test moves back
    assert mutation.main(["--run-one", "--functions", "check,Job.run", module]) == 0
    assert ran == [(module, mutation.MAX_CHILDREN, ["check", "Job.run"])]


def test_every_module_and_test_file_in_the_table_exists_and_mutmut_mutates_it():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    import fnmatch

    for module, tests in mutation.MODULES.items():
        assert (ROOT / module).is_file(), module
        assert any(fnmatch.fnmatch(module, p) for p in config["only_mutate"]), module
        assert any(Path(module).is_relative_to(p) for p in config["source_paths"]), module
        answers = [t for t in tests if t.startswith(mutation.REDTEAM)]
        files = [t for t in tests if not t.startswith("--") and t not in answers]
        assert files and all((ROOT / t).is_file() for t in files), (module, tests)
        options = set(tests) - set(files) - set(answers)
        flags = {mutation.FORK, mutation.TRITON_INTERPRET}
        assert all(o in flags or o.startswith("--deselect=") for o in options), tests
        for left_out in options - flags:  # a test of one of those files, by name
            path, _, name = left_out.removeprefix("--deselect=").partition("::")
            assert path in files and f"def {name}(" in (ROOT / path).read_text(), left_out
    # what the tests read besides the code travels into mutants/ too
    for path in config["also_copy"]:
        assert (ROOT / path).exists(), path


def test_a_redteam_entry_selects_each_answer_of_its_exercise_by_its_test_id(monkeypatch):
    import test_redteam

    monkeypatch.setitem(mutation.MODULES, "m.py", ["tests/t.py", "redteam:02.concurrency"])
    selection = mutation.selection_of("m.py")
    answers = sorted((ROOT / "tests" / "redteam" / "02.concurrency").glob("*.py"))
    assert len(answers) >= 30 and selection[0] == "tests/t.py"
    ids = [f"02.concurrency/{path.stem}" for path in answers]
    assert selection[1:] == [f"tests/test_redteam.py::test_red_team_answer[{i}]" for i in ids]
    # the ids are the ones test_redteam gives its tests
    assert {test_redteam._param(path).id for path in answers} == set(ids)
    monkeypatch.setitem(mutation.MODULES, "m.py", ["redteam:02.nope"])
    with pytest.raises(SystemExit, match="redteam:02.nope names no answers"):
        mutation.selection_of("m.py")


def test_bad_arguments_name_the_argument(capsys):
    for argv, named in [
        (["d2lgpu/nope.py"], "MODULE must be one of"),
        (["--max-children", "0"], "--max-children must be at least 1"),
        (["--time-limit", "0"], "--time-limit must be positive"),
        (["--functions", "check_ddp"], "--functions goes with exactly one module, got "),
        (["--functions", "a b", "d2lgpu/grading.py"], "functions must be names such as"),
    ]:
        with pytest.raises(SystemExit):
            mutation.main(argv)
        assert named in capsys.readouterr().err


def test_each_run_starts_from_fresh_mutants_and_a_fresh_record_of_which_test_calls_what(
    tmp_path, monkeypatch
):
    # A test changed since the last run must be asked again which functions it calls, or the
    # mutants of a function it calls only now survive untested.
    mutants = tmp_path / "mutants"
    (mutants / "tools").mkdir(parents=True)
    stale = [mutants / "tools/work_copies.py", mutants / "tools/work_copies.py.meta"]
    stale.append(mutants / mutation.STATS)
    kept = mutants / "tools/setup_cell.py.meta"  # another module's results stay
    for path in [*stale, kept]:
        path.write_text("{}")
    started = []

    class Child:
        pid, returncode = 0, 0

        def __init__(self, command, **kwargs):
            started.append(command)
            assert not any(p.exists() for p in stale), "mutmut started before the clean-up"

        def wait(self, timeout=None):
            return 0

    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    monkeypatch.setattr(mutation.subprocess, "Popen", Child)
    wall_s, finished = mutation.run_module("tools/work_copies.py", 1, 60, mutants / "x.log")
    assert finished and wall_s >= 0 and kept.exists()
    [command] = started
    assert command[-4:] == ["--run-one", "--max-children", "1", "tools/work_copies.py"]


def test_a_modules_copies_come_from_mutmuts_fork_server_unless_it_is_marked_fork(monkeypatch):
    # torch's profiler and its intra-op threads hang a copy forked after they ran: chapter 2's
    # and chapter 6's tests run them; chapter 11's plans are measured once, and read back
    from mutmut import __main__ as mutmut_main
    from mutmut import configuration

    cfg = configuration.config()
    monkeypatch.setattr(cfg, "process_isolation", configuration.ProcessIsolation.FORK)
    monkeypatch.setattr(cfg, "pytest_add_cli_args_test_selection", [])
    ran = []
    monkeypatch.setattr(mutmut_main, "cli", lambda args: ran.append(args))
    monkeypatch.setattr(mutation, "_name_tools_mutants_by_their_module", lambda: None)
    installed = []  # mutmut patched for decorated functions before it runs, in its process only
    monkeypatch.setattr(mutation.mutation_decorated, "install", lambda: installed.append(ran[:]))
    for module, isolation in [
        ("d2lgpu/checks/ch06_performance.py", configuration.ProcessIsolation.FORKSERVER),
        ("d2lgpu/checks/_ch02_norms.py", configuration.ProcessIsolation.FORKSERVER),
        ("d2lgpu/grading.py", configuration.ProcessIsolation.FORKSERVER),
        ("d2lgpu/checks/ch11_plan.py", configuration.ProcessIsolation.FORK),
    ]:
        monkeypatch.setattr(cfg, "process_isolation", configuration.ProcessIsolation.FORK)
        mutation.run_one(module, 1)
        assert cfg.process_isolation == isolation, module
        assert mutation.FORK not in cfg.pytest_add_cli_args_test_selection
        assert cfg.pytest_add_cli_args_test_selection[0].startswith("tests/test_")
    assert len(ran) == 4
    assert [len(before) for before in installed] == [0, 1, 2, 3]


def test_a_module_marked_triton_interpret_runs_with_tritons_interpreter_switched_on(monkeypatch):
    # Its tests then grade Triton answers in pytest's own process, where the mutants reach.
    from mutmut import __main__ as mutmut_main
    from mutmut import configuration

    cfg = configuration.config()
    monkeypatch.setattr(cfg, "pytest_add_cli_args_test_selection", [])
    monkeypatch.setattr(mutmut_main, "cli", lambda args: None)
    monkeypatch.setattr(mutation, "_name_tools_mutants_by_their_module", lambda: None)
    monkeypatch.setattr(mutation.mutation_decorated, "install", lambda: None)
    monkeypatch.setenv("TRITON_INTERPRET", "0")  # so that the test's end puts it back as it was
    monkeypatch.delenv("TRITON_INTERPRET")
    mutation.run_one("d2lgpu/checks/ch02_time_fn.py", 1)
    assert "TRITON_INTERPRET" not in os.environ
    mutation.run_one("d2lgpu/checks/ch07_triton.py", 1)
    assert os.environ["TRITON_INTERPRET"] == "1"
    selection = cfg.pytest_add_cli_args_test_selection
    assert mutation.TRITON_INTERPRET not in selection
    assert "tests/test_checks_ch07.py" in selection
    assert any("test_red_team_answer[07.rms_norm/" in test for test in selection)


DECORATED = """
import contextlib
import functools
from contextlib import contextmanager


def one_cpu_thread(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


@contextmanager
def watching(log):
    log.append("in")
    yield len(log)
    log.append("out")


@one_cpu_thread
def check(x):
    def inner(y):
        return y + 1

    return inner(x) * 2


@functools.lru_cache(maxsize=8)
def cached(x):
    return x + 3


@contextlib.contextmanager
@one_cpu_thread
def both(log):
    log.append(1)
    yield


def registered(fn):
    return fn


@registered
def left_alone(x):
    return x - 1
"""


def test_decorated_functions_are_mutated_and_their_copies_run_undecorated(monkeypatch):
    # mutmut passes over every decorated function; the course's watches (@contextmanager) and
    # checkers (@one_cpu_thread) were never mutated until tools/mutation_decorated.py
    import mutation_decorated
    from mutmut.mutation import file_mutation, trampoline

    monkeypatch.setattr(
        file_mutation.MutationVisitor,
        "_skip_node_and_children",
        file_mutation.MutationVisitor._skip_node_and_children,
    )
    monkeypatch.setattr(
        file_mutation,
        "function_trampoline_arrangement",
        file_mutation.function_trampoline_arrangement,
    )
    before = file_mutation.mutate_file_contents("m.py", DECORATED).mutant_names
    assert not any(name.startswith(("x_watching", "x_check", "x_cached")) for name in before)
    mutation_decorated.install()
    mutated = file_mutation.mutate_file_contents("m.py", DECORATED)
    functions = {name.rpartition("__mutmut_")[0] for name in mutated.mutant_names}
    assert {"x_watching", "x_check", "x_cached", "x_both"} <= functions
    assert "x_left_alone" not in functions  # a decorator not known to only wrap
    namespace: dict = {"__name__": "m"}
    exec(compile(mutated.code, "m.py", "exec"), namespace)
    monkeypatch.delenv("MUTANT_UNDER_TEST", raising=False)
    seen = set()  # what each mutant of check and cached returns, and watching's log
    for active in mutated.mutant_names:
        monkeypatch.setattr(trampoline, "_mutant_under_test", f"m.{active}")
        namespace["cached"].cache_clear()
        log: list = []
        try:
            with namespace["watching"](log):
                pass
            seen.add(
                (
                    active.rpartition("__mutmut_")[0],
                    namespace["check"](1),
                    namespace["cached"](1),
                    tuple(log),
                )
            )
        except TypeError:
            pass
    # each decorated function's mutants run in place of the original: the values change
    assert {s[1] for s in seen if s[0] == "x_check"} - {4}
    assert {s[2] for s in seen if s[0] == "x_cached"} - {4}
    assert {s[3] for s in seen if s[0] == "x_watching"} - {("in", "out")}
    monkeypatch.setattr(trampoline, "_mutant_under_test", "")
    namespace["cached"].cache_clear()
    log = []
    with namespace["watching"](log) as n:  # a context manager once, not a generator's
        assert n == 1
    assert log == ["in", "out"] and namespace["check"](1) == 4 and namespace["cached"](1) == 4
    assert namespace["check"].__name__ == "check"
