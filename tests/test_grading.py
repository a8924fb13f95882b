"""The grading machinery: pass, fail with a hint, not attempted, never a crash."""

import pytest

from d2lgpu import grading


@pytest.fixture
def toy_exercise(monkeypatch):
    checkers = dict(grading._CHECKERS)
    monkeypatch.setattr(grading, "_CHECKERS", checkers)

    @grading.checker("00.double")
    def check_double(answer, passed):
        if answer(2) != 4:
            raise grading.CheckFailed("double(2) should be 4: multiply by 2, do not add 2")
        passed.append("double(2) == 4")
        if answer(5) != 10:
            raise grading.CheckFailed("double(5) should be 10")
        passed.append("double(5) == 10")

    return "00.double"


def test_a_right_answer_passes_and_lists_the_checks(toy_exercise, capsys):
    result = grading.check(toy_exercise, lambda x: 2 * x)
    assert result.ok and result.passed == ["double(2) == 4", "double(5) == 10"]
    out = capsys.readouterr().out
    assert out.startswith("PASS 00.double: these checks passed:")


def test_a_wrong_answer_fails_with_the_hint(toy_exercise, capsys):
    result = grading.check(toy_exercise, lambda x: x + 2)
    assert result.status == "failed" and result.passed == ["double(2) == 4"]
    assert "FAIL 00.double: double(5) should be 10" in capsys.readouterr().out


def test_a_stub_is_not_attempted_yet(toy_exercise, capsys):
    def stub(x):
        raise NotImplementedError

    assert grading.check(toy_exercise, stub).status == "not attempted"
    assert "NOT ATTEMPTED YET" in capsys.readouterr().out


def test_a_crashing_answer_is_reported_not_raised(toy_exercise):
    result = grading.check(toy_exercise, lambda x: 1 / 0, quiet=True)
    assert result.status == "failed"
    assert "your code raised ZeroDivisionError" in result.hint


def test_an_unknown_exercise_lists_the_known_ones(toy_exercise):
    with pytest.raises(ValueError, match="exercise_id 'nope' is unknown; allowed: .*00.double"):
        grading.check("nope", None)


def test_a_checker_cannot_be_registered_twice(toy_exercise):
    with pytest.raises(ValueError, match="already has a checker"):
        grading.checker(toy_exercise)(lambda answer, passed: None)


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
