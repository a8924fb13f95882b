"""The grading machinery: pass, fail with a hint, not attempted, never a crash."""

import functools

import pytest
import torch

from d2lgpu import grading
from d2lgpu.checks._util import CheckFailed, mark_case


def check_double(answer, passed):
    """A toy checker, found through grading.CHECKERS like the real ones."""
    if answer(2) != 4:
        raise grading.CheckFailed("double(2) should be 4: multiply by 2, do not add 2")
    passed.append("double(2) == 4")
    if answer(5) != 10:
        raise grading.CheckFailed("double(5) should be 10")
    passed.append("double(5) == 10")


def check_double_in_cases(answer, passed):
    """check_double, with each call's case named on what the answer raises."""
    for x, where in ((2, "x = 2"), (5, "x = 5, an odd x")):
        try:
            got = answer(x)
        except Exception as error:
            mark_case(error, where)
            mark_case(error, "a later case")  # the first case named stays
            raise
        if got != 2 * x:
            raise grading.CheckFailed(f"double({x}) should be {2 * x}")
    passed.append("double(2) == 4 and double(5) == 10")


@pytest.fixture
def toy_exercise(monkeypatch):
    monkeypatch.setitem(grading.CHECKERS, "00.double", f"{__name__}:check_double")
    return "00.double"


def test_a_right_answer_passes_and_lists_the_checks(toy_exercise, capsys):
    result = grading.check(toy_exercise, lambda x: 2 * x)
    assert result.ok and result.passed == ["double(2) == 4", "double(5) == 10"]
    out = capsys.readouterr().out
    assert out.startswith("PASS 00.double: these checks passed:")


def test_quiet_prints_nothing_and_a_pass_has_no_hint(toy_exercise, capsys):
    result = grading.check(toy_exercise, lambda x: 2 * x, quiet=True)
    assert capsys.readouterr().out == "" and not result.printed
    assert result.ok and result.hint == ""
    failed = grading.check(toy_exercise, lambda x: x + 2, quiet=True)
    assert capsys.readouterr().out == "" and not failed.printed and failed.hint


def test_a_wrong_answer_fails_with_the_hint(toy_exercise, capsys):
    result = grading.check(toy_exercise, lambda x: x + 2)
    assert result.status == "failed" and result.passed == ["double(2) == 4"]
    assert "FAIL 00.double: double(5) should be 10" in capsys.readouterr().out


def test_a_stub_is_not_attempted_yet(toy_exercise, capsys):
    def stub(x):
        raise NotImplementedError

    result = grading.check(toy_exercise, stub)
    assert result.status == "not attempted"
    assert "NOT ATTEMPTED YET" in capsys.readouterr().out
    # the line every exercise notebook shows before the learner has written anything
    assert result.hint.startswith("the answer still raises NotImplementedError: replace the stub")
    assert result.hint.endswith("with your code")


def test_a_crashing_answer_is_reported_not_raised(toy_exercise):
    result = grading.check(toy_exercise, lambda x: 1 / 0, quiet=True)
    assert result.status == "failed"
    assert "your code raised ZeroDivisionError" in result.hint


def test_a_crash_names_the_case_it_raised_in_where_the_checker_named_it(toy_exercise, monkeypatch):
    monkeypatch.setitem(grading.CHECKERS, "00.cases", f"{__name__}:check_double_in_cases")

    def odd_refused(x):
        if x % 2:
            raise ValueError("x must be even")
        return 2 * x

    hint = grading.check("00.cases", odd_refused, quiet=True).hint
    assert hint.startswith(
        "for x = 5, an odd x, your code raised ValueError: x must be even (in your "
    ), hint
    unnamed = grading.check(toy_exercise, lambda x: 1 / 0, quiet=True).hint
    assert unnamed.startswith("your code raised ZeroDivisionError"), unnamed


def test_a_recursion_error_reads_alike_wherever_the_limit_tripped(toy_exercise):
    # CPython adds " while calling a Python object" where a C call trips the limit, and nothing
    # where a Python frame does: which one depends on how deep the checker's own stack is
    def python_frames(x, depth=0):
        return python_frames(x, depth + 1)

    def through_torch(x):
        return through_torch(torch.ones(2, 2) @ torch.ones(2, 2))

    answers = (python_frames, through_torch)
    hints = [grading.check(toy_exercise, f, quiet=True).hint for f in answers]
    for hint, name in zip(hints, ("python_frames", "through_torch"), strict=True):
        assert hint.startswith(
            "your code raised RecursionError: maximum recursion depth exceeded (in your "
            f"function {name}, line "
        ), hint


def test_an_unknown_exercise_is_reported_with_the_known_ones_not_raised(toy_exercise, capsys):
    ran = []
    result = grading.check("nope", ran.append)
    assert result.status == "unknown exercise" and not result.ok and ran == []
    out = capsys.readouterr().out
    assert out.count("\n") == 1, out  # one line
    assert out.startswith("UNKNOWN EXERCISE 'nope': no exercise has this id; known ids: ")
    assert "did you mean" not in out  # nothing is close to "nope"
    assert all(exercise_id in out for exercise_id in grading.exercise_ids())
    assert "00.double" in out and result.printed


def test_an_unknown_exercise_names_the_closest_id(capsys):
    result = grading.check("02.timefn", None)  # the review's typo
    assert result.status == "unknown exercise"
    assert "did you mean '02.time_fn'? Known ids: 01.placement, " in capsys.readouterr().out
    assert "'02.time_fn'" in str(result)  # a notebook that displays the result sees it too


@pytest.mark.parametrize("bad", [2, None, ["02.time_fn"]])
def test_an_exercise_id_that_is_not_a_string_is_unknown_too(bad, capsys):
    result = grading.check(bad, None, quiet=True)
    assert result.status == "unknown exercise" and not result.printed
    assert capsys.readouterr().out == ""  # quiet, as for the other results
    assert str(result).startswith(f"UNKNOWN EXERCISE {bad!r}: no exercise has this id")


def test_the_table_names_an_importable_checker_for_every_exercise():
    import inspect

    for exercise_id in grading.exercise_ids():
        fn = grading._checker(exercise_id)
        assert callable(fn), exercise_id
        assert list(inspect.signature(fn).parameters)[:2] == ["answer", "passed"], exercise_id


def test_every_checker_function_is_in_the_table():
    import importlib
    import pkgutil

    import d2lgpu.checks

    listed = set(grading.CHECKERS.values())
    for info in pkgutil.iter_modules(d2lgpu.checks.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"d2lgpu.checks.{info.name}")
        for name, fn in vars(module).items():
            defined_here = getattr(fn, "__module__", None) == module.__name__
            if name.startswith("check_") and callable(fn) and defined_here:
                assert f"{module.__name__}:{name}" in listed, f"{module.__name__}.{name}"


def test_needs_answer_reports_a_stub_and_skips_the_rest_of_the_block(capsys):
    ran = []

    def stub():
        raise NotImplementedError("your code here")

    with grading.needs_answer("stub"):
        stub()
        ran.append("after")
    assert ran == []
    assert "NOT ATTEMPTED YET: this cell uses stub" in capsys.readouterr().out


def test_needs_answer_lets_other_errors_through():
    with pytest.raises(ZeroDivisionError), grading.needs_answer():
        _ = 1 / 0


def test_a_notebook_shows_the_report_once(toy_exercise, capsys):
    result = grading.check(toy_exercise, lambda x: 2 * x)
    result._ipython_display_()  # what IPython calls when the cell ends with check(...)
    assert capsys.readouterr().out.count("PASS 00.double") == 1
    quiet = grading.check(toy_exercise, lambda x: 2 * x, quiet=True)
    quiet._ipython_display_()
    assert capsys.readouterr().out.count("PASS 00.double") == 1


# ---------------------------------------------------------------------------------------------
# What an answer can do to a check: loop forever, exit, be interrupted, crash.


def test_an_endless_loop_is_stopped_at_the_time_limit_and_its_line_named(toy_exercise):
    def endless(x):
        n = 0
        while True:
            n += 1

    result = grading.check(toy_exercise, endless, quiet=True, time_limit_s=0.5)
    assert result.status == "failed"
    assert "your answer ran for more than 0.5 s" in result.hint
    assert "in your function endless" in result.hint
    assert "`while True:`" in result.hint or "`n += 1`" in result.hint


def test_a_loop_that_swallows_the_stop_is_still_stopped(toy_exercise):
    def stubborn(x):
        for _ in range(5):
            try:
                while True:
                    pass
            except BaseException:  # noqa: BLE001 (what a learner might write)
                pass
        return 2 * x

    result = grading.check(toy_exercise, stubborn, quiet=True, time_limit_s=0.3)
    assert result.status == "failed" and "ran for more than 0.3 s" in result.hint


def test_a_sleeping_answer_is_stopped(toy_exercise):
    import time

    start = time.monotonic()
    result = grading.check(toy_exercise, lambda x: time.sleep(60), quiet=True, time_limit_s=0.5)
    assert "ran for more than 0.5 s" in result.hint
    assert time.monotonic() - start < 30


def test_the_time_limit_works_off_the_main_thread(toy_exercise):
    from concurrent.futures import ThreadPoolExecutor

    def endless(x):
        while True:
            pass

    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(grading.check, toy_exercise, endless, quiet=True, time_limit_s=0.5)
        result = result.result(timeout=60)
    assert "ran for more than 0.5 s" in result.hint


def test_a_time_out_leaves_no_patch_mode_or_thread_setting_behind():
    import torch
    from torch.overrides import _get_current_function_mode_stack

    available, count, threads = torch.cuda.is_available, torch.cuda.device_count, 3
    torch.set_num_threads(threads)

    def endless(*args):
        while True:
            pass

    for exercise_id, answer in [
        ("01.placement", endless),
        ("02.frobenius", (endless, endless)),
        ("03.device_bug", endless),
        ("04.amp", endless),
        ("06.slowest_op", endless),
    ]:
        result = grading.check(exercise_id, answer, quiet=True, time_limit_s=0.5)
        assert "ran for more than 0.5 s" in result.hint, (exercise_id, result.hint)
        assert torch.cuda.is_available is available and torch.cuda.device_count is count
        assert torch.get_num_threads() == threads, exercise_id
        assert not _get_current_function_mode_stack(), exercise_id


def test_the_time_limit_gives_back_an_outer_alarm():
    import signal

    signal.setitimer(signal.ITIMER_REAL, 100.0)
    try:
        grading.check("01.placement", lambda n: ["cpu"] * n, quiet=True, time_limit_s=5)
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 90 < left <= 100
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def test_a_bad_time_limit_is_named(toy_exercise):
    for bad in (0, -1, float("nan"), float("inf"), "10", True):
        with pytest.raises(ValueError, match="time_limit_s must be a finite number > 0"):
            grading.check(toy_exercise, lambda x: 2 * x, time_limit_s=bad)


def test_sys_exit_in_an_answer_is_reported_not_raised(toy_exercise):
    import sys

    def exits(x):
        sys.exit(3)

    result = grading.check(toy_exercise, exits, quiet=True)
    assert result.status == "failed"
    assert "your code called sys.exit(3)" in result.hint and "in your function exits" in result.hint


def test_a_keyboard_interrupt_is_reported_not_raised(toy_exercise):
    def interrupted(x):
        raise KeyboardInterrupt

    result = grading.check(toy_exercise, interrupted, quiet=True)
    assert result.status == "failed" and "interrupted (KeyboardInterrupt)" in result.hint


def test_a_crash_cites_the_learners_line_never_the_checkers(toy_exercise):
    def divides(x):
        y = x - 2
        return x / y

    hint = grading.check(toy_exercise, divides, quiet=True).hint
    assert "ZeroDivisionError" in hint and "in your function divides" in hint
    assert "return x / y" in hint
    assert "grading" not in hint and "check_double" not in hint


def test_an_error_outside_the_learners_code_cites_no_line(monkeypatch):
    # a "checker" that fails in the course's own code, with no frame of the learner's
    monkeypatch.setitem(grading.CHECKERS, "00.broken", "d2lgpu.devices:num_gpus")
    hint = grading.check("00.broken", lambda x: x, quiet=True).hint
    assert "could not use what your answer returned" in hint and "TypeError" in hint
    assert "line" not in hint


def test_not_implemented_from_torch_is_a_crash_not_a_stub(toy_exercise):
    import torch

    def meta_copy(x):
        return torch.ones(2, device="meta").cpu()

    result = grading.check(toy_exercise, meta_copy, quiet=True)
    assert result.status == "failed" and "NotImplementedError" in result.hint


def test_a_failed_report_lists_the_checks_that_passed_before_it():
    failed = grading.CheckResult("00.x", "failed", ["a ran", "b ran"], "c is wrong")
    assert str(failed) == (
        "FAIL 00.x: c is wrong\n  checks that passed before this one:\n  - a ran\n  - b ran"
    )
    assert str(grading.CheckResult("00.x", "failed", [], "c is wrong")) == "FAIL 00.x: c is wrong"
    assert not failed.ok
    stub = grading.CheckResult("00.x", "not attempted", [], "write it")
    assert str(stub) == "NOT ATTEMPTED YET 00.x: write it" and not stub.ok
    passed = grading.CheckResult("00.x", "passed", ["a ran"])
    assert str(passed) == "PASS 00.x: these checks passed:\n  - a ran" and passed.ok


def test_ipython_pretty_prints_the_report():
    shown = []
    printer = type("Printer", (), {"text": lambda self, text: shown.append(text)})()
    result = grading.CheckResult("00.x", "failed", [], "c is wrong")
    result._repr_pretty_(printer, cycle=False)
    assert shown == [str(result)]


def test_sys_exit_without_a_code_is_reported_as_such(toy_exercise):
    import sys

    def exits(x):
        sys.exit()

    hint = grading.check(toy_exercise, exits, quiet=True).hint
    assert "your code called sys.exit() (" in hint


def test_the_time_limit_is_the_exercises_own_else_the_default(toy_exercise, monkeypatch):
    import contextlib

    limits = []

    @contextlib.contextmanager
    def recording_time_limit(seconds):
        limits.append(seconds)
        yield {"raised": False}

    monkeypatch.setattr(grading, "time_limit", recording_time_limit)
    grading.check(toy_exercise, lambda x: 2 * x, quiet=True)
    monkeypatch.setitem(grading.TIME_LIMITS_S, toy_exercise, 7.5)
    grading.check(toy_exercise, lambda x: 2 * x, quiet=True)
    grading.check(toy_exercise, lambda x: 2 * x, quiet=True, time_limit_s=3)
    assert limits == [grading.DEFAULT_TIME_LIMIT_S, 7.5, 3]


def test_not_implemented_raised_by_a_library_is_a_crash_not_a_stub(toy_exercise):
    import torch

    def no_forward(x):
        return torch.nn.Module()(torch.ones(1))  # a module without forward(): torch raises

    result = grading.check(toy_exercise, no_forward, quiet=True)
    assert result.status == "failed" and "NotImplementedError" in result.hint
    assert "in your function no_forward" in result.hint


def test_an_exit_outside_the_learners_code_names_no_place(monkeypatch):
    import sys

    # a "checker" that hands the answer its list: sys.exit([]) runs with no frame of the learner's
    monkeypatch.setitem(grading.CHECKERS, "00.call", "operator:call")
    hint = grading.check("00.call", sys.exit, quiet=True).hint
    assert hint.startswith("your code called sys.exit([]), which would stop the notebook's kernel")


@pytest.mark.parametrize("outcome", ["passes", "fails", "crashes"])
def test_a_check_leaves_the_learners_random_generator_as_it_was(monkeypatch, outcome):
    import torch

    def reseeding_checker(answer, passed):
        torch.manual_seed(0)  # a checker's own data...
        answer(torch.rand(3))  # ...and an answer that draws too
        if outcome == "fails":
            raise CheckFailed("wrong")
        if outcome == "crashes":
            raise RuntimeError("the answer crashed")
        passed.append("fine")

    monkeypatch.setattr(grading, "_checker", lambda exercise_id: reseeding_checker)
    torch.manual_seed(123)
    expected = torch.rand(4)
    torch.manual_seed(123)
    result = grading.check("02.time_fn", lambda x: torch.randn(2), quiet=True)
    assert result.status == ("passed" if outcome == "passes" else "failed")
    assert torch.equal(torch.rand(4), expected)


class _NoInit:
    """An answer class the toy checker calls with an argument it does not take."""


class _CallsWithoutX:
    def __call__(self):
        return 4


def _takes_two(x, y):
    return x * y


def _helper(x):
    return 2 * x


def _calls_its_helper_wrongly(x):
    return _helper(x, 1)


@pytest.mark.parametrize(
    ("answer", "name", "said"),
    [
        (lambda: 4, "<lambda>", "takes 0 positional arguments but 1 was given"),
        (_takes_two, "_takes_two", "missing 1 required positional argument: 'y'"),
        (_NoInit, "_NoInit", "takes no arguments"),
        (_CallsWithoutX(), "_CallsWithoutX.__call__", "takes 1 positional argument but 2"),
        (functools.partial(_takes_two, 1, 2), "_takes_two", "2 positional arguments but 3"),
    ],
    ids=["lambda", "missing", "class", "callable-object", "partial"],
)
def test_an_answer_python_refuses_to_call_is_named_by_its_signature(answer, name, said):
    # a real checker: the toy one is in this file, which counts as the learner's code
    hint = grading.check("01.placement", answer, quiet=True).hint
    assert hint.startswith(f"your {name}() could not be called as the exercise calls it "), hint
    assert said in hint and hint.endswith(
        "nothing of it ran. Keep the signature of the exercise's starter code: the same "
        "arguments, in the same order, with the same names"
    )


def test_a_call_refused_inside_the_learners_own_code_is_their_error_with_its_line():
    hint = grading.check("01.placement", _calls_its_helper_wrongly, quiet=True).hint
    assert hint.startswith(
        "your code raised TypeError: _helper() takes 1 positional argument but 2 were given "
        "(in your function _calls_its_helper_wrongly, line "
    ), hint
    # a refused call of a function that is not the answer's is not named as the answer's
    from d2lgpu.checks._util import refused_call_hint

    try:
        _helper(1, 2)
    except TypeError as error:
        assert refused_call_hint(error, _calls_its_helper_wrongly) is None
        assert refused_call_hint(ValueError("_helper() takes no arguments"), _helper) is None


def test_a_not_implemented_error_of_the_learners_own_words_is_their_answer_not_the_stub(
    toy_exercise,
):
    def refuses(x):
        if x > 0:
            raise NotImplementedError(f"no rule for {x}")  # the learner's refusal
        return 2 * x

    result = grading.check(toy_exercise, refuses, quiet=True)
    assert result.status == "failed", result
    assert "your code raised NotImplementedError: no rule for" in result.hint, result.hint

    def bare(x):
        raise NotImplementedError

    assert grading.check(toy_exercise, bare, quiet=True).status == "not attempted"


def test_a_default_of_torch_an_answer_leaves_changed_is_put_back_and_named(toy_exercise):
    import torch

    def leaves_float64(x):
        torch.set_default_dtype(torch.float64)  # for every tensor made after it
        return 2 * x

    result = grading.check(toy_exercise, leaves_float64, quiet=True)
    assert torch.get_default_dtype() == torch.float32  # put back for the next check
    assert result.status == "failed"
    assert result.hint.startswith(
        "your answer leaves a process-wide default of torch changed "
        "(torch.set_default_dtype(torch.float64)): every tensor made (or product computed) afterwards"
    ), result.hint

    def leaves_no_grad(x):
        torch.set_grad_enabled(False)
        return 2 * x

    result = grading.check(toy_exercise, leaves_no_grad, quiet=True)
    assert torch.is_grad_enabled() and "torch.set_grad_enabled(False)" in result.hint


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_thread_the_answer_started_that_died_is_named_first(toy_exercise):
    import threading

    before = threading.excepthook

    def doubled_in_a_thread(x):
        box = {}

        def work():
            box["y"] = 2 * x
            raise RuntimeError("the worker gave up")

        worker = threading.Thread(target=work)
        worker.start()
        worker.join()
        return box["z"]  # the answer's own error follows

    result = grading.check(toy_exercise, doubled_in_a_thread, quiet=True)
    assert result.status == "failed"
    assert result.hint.startswith(
        "a thread your code started raised RuntimeError: the worker gave up (in your function "
        "work, line"
    ), result.hint
    assert "; then your code raised KeyError: 'z'" in result.hint
    assert threading.excepthook is before  # put back as it was


def test_a_pretended_gpu_reached_from_a_thread_of_the_answers_own_is_named(toy_exercise):
    from concurrent.futures import ThreadPoolExecutor

    def no_cuda(x):
        raise RuntimeError("Found no NVIDIA driver on your system.")

    def copied_in_a_thread(x):
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(no_cuda, x).result()

    hint = grading.check(toy_exercise, copied_in_a_thread, quiet=True).hint
    assert hint.startswith("your code raised RuntimeError: Found no NVIDIA driver"), hint
    assert hint.endswith(
        "in a thread your code started (a GPU this check pretends is there only in the thread "
        "that calls your answer). On a GPU, such a thread queues its work on its own current "
        "stream, the default stream unless it enters another, not on a stream the calling "
        "thread chose: queue GPU work from the thread that calls your function"
    ), hint
    # In the calling thread, or another error in a thread: no such note.
    assert "thread" not in grading.check(toy_exercise, no_cuda, quiet=True).hint

    def other_error(x):
        raise RuntimeError("CUDA error: out of memory")

    def other_in_a_thread(x):
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(other_error, x).result()

    assert "pretends" not in grading.check(toy_exercise, other_in_a_thread, quiet=True).hint
    torch_said = RuntimeError("Torch not compiled with CUDA enabled")
    assert grading.gpu_in_a_thread_note(torch_said) == ""  # raised nowhere: no thread
    assert grading.gpu_in_a_thread_note(RuntimeError("CUDA error: out of memory")) == ""


def check_sees_the_answer(answer, passed):
    """A toy checker that asks which answer is being graded, as the watches do."""
    from d2lgpu._aliases import graded_answer

    if graded_answer() is not answer:
        raise grading.CheckFailed(f"graded_answer() is {graded_answer()!r}, not the answer")
    passed.append("graded_answer() is the answer")


def test_the_answer_being_graded_is_named_to_the_watches_while_it_runs(monkeypatch):
    from d2lgpu._aliases import graded_answer

    monkeypatch.setitem(grading.CHECKERS, "00.sees", f"{__name__}:check_sees_the_answer")
    result = grading.check("00.sees", lambda x: x, quiet=True)
    assert result.ok, result.hint
    assert graded_answer() is None  # and no longer once the check is over


def test_a_librarys_bare_not_implemented_error_is_a_crash_not_a_stub(toy_exercise):
    import asyncio

    def calls_an_abstract_method(x):
        return asyncio.AbstractEventLoop().run_forever()  # raises NotImplementedError()

    result = grading.check(toy_exercise, calls_an_abstract_method, quiet=True)
    assert result.status == "failed", result
    assert result.hint.startswith("your code raised NotImplementedError"), result.hint


def test_a_hint_names_an_object_without_its_address():
    # the same answer gets the same words in every run (said.json records them)
    def bandwidths(nbytes, seconds, world_size, collective):
        yield nbytes / seconds / 1e9

    hint = grading.check("10.bus_bandwidth", bandwidths, quiet=True).hint
    assert hint == (
        "bandwidths(1048576, 0.001, 2, 'all_reduce') returned <generator object "
        "test_a_hint_names_an_object_without_its_address.<locals>.bandwidths>: return a pair "
        "(algbw, busbw)"
    ), hint
