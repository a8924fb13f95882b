"""Every checker, given what no exercise asks for, fails with a hint that names it.

A learner's first tries are often not yet an answer: the function's name without the
function, a function whose signature differs from the starter code's, one that returns
nothing. No checker may crash, pass or blame something else on them.
"""

import pytest

from d2lgpu.grading import check, exercise_ids

# The answer's shape: one function, or a tuple of them. 05.ddp takes a script's path and
# the Triton exercises need Triton's interpreter switched on before triton is imported
# (tests/test_checks_ch07.py runs theirs so); they take part only where they can.
_TUPLES = {"02.frobenius": 2, "03.parameters": 3}
_FUNCTIONS = [e for e in exercise_ids() if e != "05.ddp" and not e.startswith("07.")]
# A checker that reads the signature before it calls, and names the exercise's own
_OWN_SIGNATURE_HINT = {"08.copy_back": "pipelined_to_host takes five arguments, (batches, "}


def takes_nothing():
    return None


def _shaped(exercise_id, fn):
    n = _TUPLES.get(exercise_id)
    return fn if n is None else (fn,) * n


@pytest.mark.parametrize("exercise_id", exercise_ids())
def test_what_is_not_an_answer_is_named_never_passed_or_raised(exercise_id):
    for odd in (None, 42, [], "answer"):
        result = check(exercise_id, odd, quiet=True)
        assert result.status == "failed", (odd, result)
        assert result.hint and "could not use what your answer returned" not in result.hint


@pytest.mark.parametrize("exercise_id", _FUNCTIONS)
def test_a_signature_that_differs_from_the_starter_codes_is_named(exercise_id):
    result = check(exercise_id, _shaped(exercise_id, takes_nothing), quiet=True)
    assert result.status == "failed"
    expected = _OWN_SIGNATURE_HINT.get(
        exercise_id, "your takes_nothing() could not be called as the exercise calls it"
    )
    assert result.hint.startswith(expected), result.hint


@pytest.mark.parametrize("exercise_id", _FUNCTIONS)
def test_an_answer_that_does_nothing_fails_with_a_hint_of_its_own(exercise_id):
    def does_nothing(*args, **kwargs):
        return None

    result = check(exercise_id, _shaped(exercise_id, does_nothing), quiet=True)
    assert result.status == "failed"
    for generic in ("could not use what your answer returned", "could not be called"):
        assert generic not in result.hint, result.hint


_CLASSES = (
    "09.tensor_parallel",
    "10.overlap_ddp",
    "10.shard_optimizer",
)  # answers that are classes


@pytest.mark.parametrize("start", ["fork", "forkserver"])
@pytest.mark.parametrize("exercise_id", _CLASSES)
def test_a_class_whose_init_differs_is_named_however_the_ranks_start(
    exercise_id, start, monkeypatch
):
    # Where the ranks start from the fork server (on any machine with a GPU), the class
    # travels to them by value and keeps only its bare name there.
    monkeypatch.setenv("D2LGPU_RANKS_START", start)

    class TakesNothing:
        def __init__(self):
            pass

    result = check(exercise_id, TakesNothing, quiet=True)
    assert result.status == "failed"
    expected = "TakesNothing.__init__() could not be called as the exercise calls it (TypeError: "
    assert result.hint.startswith("your ") and expected in result.hint, result.hint
