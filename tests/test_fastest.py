import pytest
import torch

from d2lgpu import fastest
from d2lgpu.timing import BenchmarkResult


def result(label, *samples):
    return BenchmarkResult(label, list(samples), 1, "cpu", 1)


def tries_of(*values):
    """A measure() that returns ``values`` one try after another, counting its calls."""
    calls = []

    def measure():
        calls.append(1)
        return values[len(calls) - 1]

    return measure, calls


def test_fastest_of_keeps_each_entrys_fastest_and_stops_once_the_claim_holds():
    # x has the smaller median, y the fastest sample: y is kept, with its own median.
    first = {"a": 3.0, "b": [result("x", 1.5, 3.0, 4.0), 4], "c": (2.0, 7.0)}
    second = {"a": 1.0, "b": [result("y", 1.0, 4.0, 9.0), 6], "c": (3.0, 6.0)}
    third = {"a": 0.5, "b": [result("z", 0.1), 0], "c": (0.0, 0.0)}
    measure, calls = tries_of(first, second, third)
    kept = fastest.fastest_of(measure, lambda kept: kept["a"] < 2)
    assert len(calls) == 2  # the claim held after the second try: no third
    assert kept["a"] == 1.0 and kept["c"] == (2.0, 6.0) and isinstance(kept["c"], tuple)
    assert kept["b"][0].label == "y" and kept["b"][0].median == 4.0  # a result is kept whole
    assert kept["b"][1] == 4


def test_fastest_of_tries_as_often_as_asked_and_no_more():
    measure, calls = tries_of(3.0, 2.0, 1.0, 0.5)
    assert fastest.fastest_of(measure) == 1.0 and len(calls) == 3  # holds=None: every try
    measure, calls = tries_of(3.0, 2.0, 1.0, 0.5)
    assert fastest.fastest_of(measure, lambda kept: False, tries=2) == 2.0 and len(calls) == 2
    measure, calls = tries_of(3.0, 2.0)
    assert fastest.fastest_of(measure, lambda kept: True, tries=5) == 3.0 and len(calls) == 1
    measure, calls = tries_of(3.0, 2.0)
    assert fastest.fastest_of(measure, tries=1) == 3.0 and len(calls) == 1


@pytest.mark.parametrize(
    "first, second",
    [({"a": 1.0}, {"b": 1.0}), ([1.0], [1.0, 2.0]), ((1.0,), [1.0]), (1.0, [1.0])],
)
def test_fastest_of_names_a_try_of_another_shape(first, second):
    measure, _ = tries_of(first, second)
    with pytest.raises(TypeError, match="the same shape each try"):
        fastest.fastest_of(measure)


@pytest.mark.parametrize("wrong", ["1 ms", True, torch.tensor(1.0), None, [1.0, {"a": "x"}]])
def test_fastest_of_names_a_wrong_type_at_the_first_try_busy_machine_or_not(wrong):
    # Checked before the claim is asked: a quiet machine (the claim holds at once) fails the
    # same way as a busy one (another try is merged).
    for holds in (lambda kept: True, lambda kept: False):
        measure, _ = tries_of(wrong, wrong)
        with pytest.raises(TypeError, match="must return seconds .* it returned a"):
            fastest.fastest_of(measure, holds)
    measure, _ = tries_of(1.0, wrong)
    with pytest.raises(TypeError, match="must return seconds"):
        fastest.fastest_of(measure)


def test_fastest_of_takes_any_real_number():
    import numpy as np

    measure, _ = tries_of(np.float32(3.0), 2, np.float64(2.5))
    kept = fastest.fastest_of(measure)
    assert kept == 2 and type(kept) is int


def test_fastest_of_rejects_bad_arguments():
    with pytest.raises(TypeError, match="measure must be a function"):
        fastest.fastest_of(1.0)
    with pytest.raises(TypeError, match="holds must be None or a function"):
        fastest.fastest_of(lambda: 1.0, True)
    with pytest.raises(ValueError, match="tries"):
        fastest.fastest_of(lambda: 1.0, tries=0)
