"""The checker kit's watch on os.environ (d2lgpu.checks._kit_environ): every way an answer
writes a variable is seen, and a case's own variables are put back whoever wrote them."""

import os

import pytest

from d2lgpu.checks._kit_environ import EnvironWrites, case_environ
from d2lgpu.checks._kit_process import left_changed, settings
from d2lgpu.checks._util import CheckFailed

KEY = "D2LGPU_TEST_ENVIRON"


def answer_runs(source: str) -> None:
    """Run ``source`` as a learner's file (outside the course and its tests) would."""
    exec(compile(f"import os\n{source}\n", "answer.py", "exec"), {})  # noqa: S102


@pytest.fixture(autouse=True)
def no_key():
    os.environ.pop(KEY, None)
    yield
    os.environ.pop(KEY, None)


@pytest.mark.parametrize(
    "source",
    [
        f"os.environ[{KEY!r}] = 'on'",
        f"os.environ.setdefault({KEY!r}, 'on')",  # os._Environ's own method, in frozen os
        f"os.environ.update({{{KEY!r}: 'on'}})",  # MutableMapping's, in frozen collections.abc
        f"os.environ |= {{{KEY!r}: 'on'}}",
    ],
)
def test_every_way_an_answer_sets_a_variable_is_noted_with_its_value_before(source):
    watch = EnvironWrites()
    try:
        answer_runs(source)
    finally:
        written = watch.stop()
    assert written == {KEY: None}
    assert os.environ[KEY] == "on"


@pytest.mark.parametrize(
    "source", [f"del os.environ[{KEY!r}]", f"os.environ.pop({KEY!r})", "os.environ.clear()"]
)
def test_every_way_an_answer_removes_a_variable_is_noted_and_put_back(source):
    os.environ[KEY] = "kept"
    saved = dict(os.environ)
    before = settings()
    answer_runs(source)
    changed = left_changed(before)
    assert f"del os.environ[{KEY!r}]" in changed
    assert dict(os.environ) == saved


def test_the_checkers_own_writes_are_not_noted():
    watch = EnvironWrites()
    try:
        os.environ[KEY] = "on"  # a test file's line, as a checker's
        os.environ.setdefault(KEY + "_2", "on")
    finally:
        written = watch.stop()
        os.environ.pop(KEY + "_2", None)
    assert written == {}


def test_a_case_sets_and_unsets_its_variables_and_puts_every_one_back():
    os.environ[KEY] = "caller's"
    saved = dict(os.environ)
    with case_environ({KEY: None, KEY + "_SET": "2,3"}, "place_workers"):
        assert KEY not in os.environ and os.environ[KEY + "_SET"] == "2,3"
    assert dict(os.environ) == saved


@pytest.mark.parametrize("set_before", [False, True])
def test_an_answers_write_in_a_case_is_named_put_back_and_forgotten_by_the_watch_around(
    set_before,
):
    """The answer fills in a variable the case unset; the case names it, puts the caller's
    value back, and the watch around the whole check finds nothing left to name or undo."""
    if set_before:
        os.environ[KEY] = ""  # as a test harness that hides GPUs sets CUDA_VISIBLE_DEVICES
    saved = dict(os.environ)
    before = settings()
    with pytest.raises(CheckFailed) as failed, case_environ({KEY: None}, "place_workers"):
        answer_runs(f"os.environ.setdefault({KEY!r}, '0,1')")
    assert f"place_workers leaves a process-wide setting changed (os.environ[{KEY!r}] = '0,1')" in (
        str(failed.value)
    )
    assert dict(os.environ) == saved
    assert left_changed(before) == []
    assert dict(os.environ) == saved


def test_a_case_names_a_write_with_its_remedy_and_lets_an_answers_own_error_through():
    from d2lgpu.checks import _kit_environ

    with pytest.raises(CheckFailed) as failed:
        with case_environ({KEY: "x", KEY + "_2": None}, "f", "leave it to the launcher"):
            answer_runs(f"del os.environ[{KEY!r}]\nos.environ[{KEY + '_2'!r}] = 'y'")
    assert str(failed.value) == (
        f"f leaves the environment changed (del os.environ[{KEY!r}], "
        f"os.environ[{KEY + '_2'!r}] = 'y'): leave it to the launcher"
    )
    assert KEY + "_2" not in os.environ and _kit_environ._WATCHES == []  # each watch stopped
    with pytest.raises(ZeroDivisionError), case_environ({KEY: "x"}, "f"):
        answer_runs(f"os.environ[{KEY!r}] = 'y'\n1 / 0")
    assert KEY not in os.environ


def test_a_write_put_back_inside_the_case_is_not_named():
    with case_environ({KEY: "x"}, "f"):
        answer_runs(
            f"old = os.environ[{KEY!r}]\nos.environ[{KEY!r}] = 'y'\nos.environ[{KEY!r}] = old"
        )


def test_an_earlier_write_outside_a_case_is_still_named_by_the_watch_around():
    before = settings()
    answer_runs(f"os.environ[{KEY!r}] = 'early'")
    with case_environ({KEY: None}, "f"):
        pass
    assert left_changed(before) == [f"os.environ[{KEY!r}] = 'early'"]
    assert KEY not in os.environ
