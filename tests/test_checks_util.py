"""``d2lgpu.checks._util``: whose code a file is, how a learner's line is described, and
which refused calls are the answer's own."""

import os
import traceback
import types
from pathlib import Path

import pytest
import torch

from d2lgpu.checks import _util
from d2lgpu.checks._util import (
    _kind,
    _names,
    _names_one_of,
    describe_frame,
    in_learner_code,
    is_course_code,
    learner_is_running,
    refused_call_hint,
)


@pytest.mark.parametrize(
    ("filename", "kind"),
    [
        ("<frozen importlib._bootstrap>", "library"),
        ("<string>", "library"),
        ("<ipython-input-3-1f2e>", "learner"),
        ("<stdin>", "learner"),
        (_util.__file__, "course"),
        (torch.__file__, "library"),
        (os.__file__, "library"),
        (str(Path(__file__)), "learner"),
        ("/tmp/ipykernel_123/456.py", "learner"),  # a notebook cell's file
    ],
)
def test_each_file_is_the_courses_a_librarys_or_the_learners(filename, kind):
    assert _kind(filename) == kind
    assert in_learner_code(filename) is (kind == "learner")
    assert is_course_code(filename) is (kind == "course")


def test_a_file_whose_path_cannot_be_resolved_is_a_librarys(tmp_path):
    (tmp_path / "a.py").symlink_to(tmp_path / "b.py")
    (tmp_path / "b.py").symlink_to(tmp_path / "a.py")  # a loop: resolve() raises
    with pytest.raises((RuntimeError, OSError)):  # RuntimeError up to Python 3.12
        (tmp_path / "a.py").resolve(strict=False)
    assert _kind(str(tmp_path / "a.py")) == "library"


def _frames(*filenames):
    """A chain of frames, innermost first, in the files named."""
    frame = None
    for filename in reversed(filenames):
        frame = types.SimpleNamespace(
            f_code=types.SimpleNamespace(co_filename=filename), f_back=frame
        )
    return frame


def test_the_first_frame_outwards_that_is_no_librarys_says_who_is_running():
    lib, course, learner = torch.__file__, _util.__file__, str(Path(__file__))
    assert learner_is_running(_frames(lib, lib, learner, course)) is True
    assert learner_is_running(_frames(lib, course, learner)) is False
    assert learner_is_running(_frames(learner)) is True
    assert learner_is_running(_frames(lib, lib)) is False
    assert learner_is_running(None) is False


def test_a_learners_line_is_described_by_its_function_and_line():
    def summary(name, line):
        return traceback.FrameSummary("cell.py", 3, name, lookup_line=False, line=line)

    assert describe_frame(summary("<module>", "x = 1 / 0")) == "in your code, line 3: `x = 1 / 0`"
    assert (
        describe_frame(summary("f", "  x = 1 / 0  ")) == "in your function f, line 3: `x = 1 / 0`"
    )
    assert describe_frame(summary("f", "")) == "in your function f, line 3"


@pytest.mark.parametrize(
    ("name", "qualname", "names"),
    [
        ("NoRank.__init__", "NoRank", True),
        ("NoRank", "NoRank", True),
        # a class sent to a rank by value keeps only its bare name there
        ("t.<locals>.NoRank.__init__", "NoRank", True),
        ("t.<locals>.NoRank", "NoRank", True),
        ("x.<locals>.Outer.Inner.__init__", "Outer.Inner", True),
        ("x.<locals>.Outer.Inner", "Outer.Inner", True),
        ("Outer.Inner.__init__", "Outer", True),
        ("OtherNoRank.__init__", "NoRank", False),
        ("Inner.__init__", "Outer.Inner", False),
        ("mod.NoRank.step.inner", "NoRank", False),
        ("f", "t.<locals>.f", False),
    ],
)
def test_a_name_in_pythons_message_is_matched_by_whole_parts(name, qualname, names):
    assert _names_one_of(name, qualname) is names


def _takes_one(x):
    return x


def _recurses_wrongly(x):
    return _recurses_wrongly(x, 1)


class _Callable:
    def __call__(self, x):
        return x


def test_the_names_an_answer_is_made_of():
    assert _names(_takes_one) == {"_takes_one"}
    assert _names((_takes_one, _Callable)) == {"_takes_one", "_Callable"}
    assert _names(_Callable()) == {"_Callable"}  # a callable object: its class's methods
    assert _names(42) == {"int"}


def test_a_refused_call_made_by_the_learners_own_code_is_not_the_checkers():
    try:
        _recurses_wrongly(1)
    except TypeError as error:
        assert "takes 1 positional argument but 2 were given" in str(error)
        assert refused_call_hint(error, _recurses_wrongly) is None
    assert (
        refused_call_hint(TypeError("_takes_one() takes 1 positional argument"), _takes_one) is None
    )


def test_a_call_the_checker_made_that_python_refused_is_named_with_pythons_words():
    # an error with no traceback: raised by no line of the learner's
    error = TypeError("_takes_one() takes 1 positional argument but 2 were given")
    assert refused_call_hint(error, _takes_one) == (
        "your _takes_one() could not be called as the exercise calls it (TypeError: "
        "_takes_one() takes 1 positional argument but 2 were given): nothing of it ran. Keep "
        "the signature of the exercise's starter code: the same arguments, in the same order, "
        "with the same names"
    )
    assert refused_call_hint(error, _Callable) is None  # not one of the answer's
    assert refused_call_hint(ValueError(str(error)), _takes_one) is None
    # as a checker calls the answer: from a line of the course's
    source = "def run(answer, error):\n    with refused_call_named(answer):\n        raise error\n"
    course = {"refused_call_named": _util.refused_call_named}
    exec(compile(source, _util.__file__, "exec"), course)  # noqa: S102
    with pytest.raises(_util.CheckFailed, match=r"^your _takes_one\(\) could not be called"):
        course["run"](_takes_one, TypeError(str(error)))
    other = TypeError("unsupported operand type(s) for +: 'int' and 'str'")
    with pytest.raises(TypeError, match="unsupported operand"):  # any other error goes on
        course["run"](_takes_one, other)
