import pytest
import torch

import d2lgpu
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


@pytest.mark.parametrize("mode, expected", [("0", fastest.TRIES), ("1", fastest.STRICT_TRIES)])
def test_strict_mode_tries_more_before_a_claim_fails_the_run(monkeypatch, mode, expected):
    monkeypatch.setenv(fastest.STRICT_ENV_VAR, mode)
    measure, calls = tries_of(*range(20, 0, -1))
    assert fastest.fastest_of(measure, lambda kept: False) == 21 - expected
    assert len(calls) == expected
    measure, calls = tries_of(*range(20, 0, -1))  # without a claim: every try, as many as asked
    assert fastest.fastest_of(measure) == 21 - fastest.TRIES and len(calls) == fastest.TRIES
    measure, calls = tries_of(*range(20, 0, -1))
    assert fastest.fastest_of(measure, lambda kept: kept < 19) == 18 and len(calls) == 3
    assert fastest.STRICT_TRIES > fastest.TRIES


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


@pytest.fixture
def learner(monkeypatch):
    monkeypatch.setenv("D2LGPU_STRICT", "0")


def test_a_claim_that_holds_is_silent_in_both_modes(monkeypatch, capsys):
    for mode in ("0", "1"):
        monkeypatch.setenv("D2LGPU_STRICT", mode)
        assert d2lgpu.claim(True, expected="a", measured="b") is None
    assert capsys.readouterr().out == ""


def test_a_claim_that_fails_raises_in_strict_mode_with_both_values(monkeypatch):
    monkeypatch.setenv("D2LGPU_STRICT", "1")
    with pytest.raises(AssertionError, match=r"expected slower; measured 1\.0 us against 2\.0 us"):
        d2lgpu.claim(False, expected="slower", measured="1.0 us against 2.0 us")


def test_a_claim_that_fails_prints_and_goes_on_for_a_learner(learner, capsys):
    assert d2lgpu.claim(False, expected="slower", measured="1.0 us against 2.0 us") is None
    out = capsys.readouterr().out
    assert "expected slower; measured 1.0 us against 2.0 us" in out
    assert "too busy" in out and "Run All goes on" in out


@pytest.mark.parametrize(
    ("env", "want"),
    [
        ({}, False),
        ({"CI": "true"}, True),
        ({"PYTEST_CURRENT_TEST": "t"}, True),
        ({"CI": "true", "D2LGPU_STRICT": "0"}, False),
        ({"D2LGPU_STRICT": "1"}, True),
        ({"D2LGPU_STRICT": ""}, False),
    ],
)
def test_strict_mode_follows_ci_pytest_and_the_override(monkeypatch, env, want):
    for name in ("CI", "PYTEST_CURRENT_TEST", "D2LGPU_STRICT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert d2lgpu.fastest.strict() is want


def test_claim_rejects_bad_arguments(learner):
    with pytest.raises(ValueError, match="D2LGPU_STRICT must be 1"):
        with pytest.MonkeyPatch.context() as m:
            m.setenv("D2LGPU_STRICT", "yes")
            d2lgpu.claim(False, expected="a", measured="b")
    with pytest.raises(TypeError, match="holds must be a bool"):
        d2lgpu.claim("yes", expected="a", measured="b")
    with pytest.raises(ValueError, match="expected must be a non-empty string"):
        d2lgpu.claim(True, expected="", measured="b")
    with pytest.raises(ValueError, match="measured must be a non-empty string"):
        d2lgpu.claim(True, expected="a", measured=None)
