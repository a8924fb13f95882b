"""What the checker tests share: grade an answer quietly and assert PASS or FAIL with a hint."""

from pathlib import Path

import pytest

from d2lgpu.grading import CheckFailed, check

ROOT = Path(__file__).resolve().parent.parent


def assert_fails(exercise_id, answer, *hint_parts):
    """Grade ``answer``: it must fail, with every one of ``hint_parts`` in the hint."""
    result = check(exercise_id, answer, quiet=True)
    assert result.status == "failed", str(result)
    for part in hint_parts:
        assert part in result.hint, f"{part!r} not in the hint: {result.hint}"
    return result


def assert_passes(exercise_id, answer):
    """Grade ``answer``: it must pass, with the usual report."""
    result = check(exercise_id, answer, quiet=True)
    assert result.ok, str(result)
    assert str(result).startswith(f"PASS {exercise_id}: these checks passed:")
    return result


def rule_fails(rule, *args) -> str:
    """Call one of a checker's rules, ``rule(*args)``: it must raise CheckFailed; its hint."""
    with pytest.raises(CheckFailed) as wrong:
        rule(*args)
    return wrong.value.hint


def stub(*args):
    """The exercise notebooks' placeholder answer."""
    raise NotImplementedError("your code here")
