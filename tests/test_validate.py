"""d2lgpu._validate: one wording and one exception type for bad arguments, everywhere."""

import math

import numpy as np
import pytest

from d2lgpu._validate import check_int, check_nonnegative, check_positive, check_seconds


@pytest.mark.parametrize("value", [0, 5, 10**12, np.int64(3), np.uint8(7)])
def test_ints_pass_and_are_returned(value):
    assert check_int("n", value, minimum=0) is value


@pytest.mark.parametrize(
    "value, kwargs, message",
    [
        (-1, {"minimum": 0}, "n must be an int >= 0, got -1"),
        (0, {"minimum": 1}, "n must be an int >= 1, got 0"),
        (True, {"minimum": 0}, "n must be an int >= 0, got True"),
        (False, {}, "n must be an int, got False"),
        (1.0, {"minimum": 1}, "n must be an int >= 1, got 1.0"),
        ("3", {}, "n must be an int, got '3'"),
        (None, {"minimum": 1}, "n must be an int >= 1, got None"),
        (0, {"minimum": 1, "allow_none": True}, "n must be an int >= 1 or None, got 0"),
        (2.5, {"allow_none": True}, "n must be an int or None, got 2.5"),
        (-1, {"minimum": 0, "what": "a GPU index"}, "n must be a GPU index >= 0, got -1"),
    ],
)
def test_bad_ints_raise_one_sentence(value, kwargs, message):
    with pytest.raises(ValueError) as info:
        check_int("n", value, **kwargs)
    assert str(info.value) == message


def test_the_minimum_itself_passes_and_none_only_when_allowed():
    assert check_int("n", 1, minimum=1) == 1
    assert check_int("n", -7) == -7  # no minimum: any int
    assert check_int("n", None, minimum=1, allow_none=True) is None


@pytest.mark.parametrize("value", [1e-12, 3, 0.5, np.float32(2.0), math.inf])
def test_positive_numbers_pass(value):
    assert check_positive("t", value) is value


@pytest.mark.parametrize("value", [0, -1, -0.0, math.nan, True, "1", None])
def test_other_values_are_not_positive_numbers(value):
    with pytest.raises(ValueError) as info:
        check_positive("t", value)
    assert str(info.value) == f"t must be a number > 0, got {value!r}"


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 0, True])
def test_finite_refuses_infinity_as_well(value):
    with pytest.raises(ValueError) as info:
        check_positive("t", value, finite=True)
    assert str(info.value) == f"t must be a finite number > 0, got {value!r}"
    assert check_positive("t", 2.5, finite=True) == 2.5


@pytest.mark.parametrize("value", [0, 0.0, 1e-9, 7, np.float64(0.5)])
def test_nonnegative_numbers_pass(value):
    assert check_nonnegative("wait_s", value) is value


@pytest.mark.parametrize("value", [-1e-9, -3, math.nan, math.inf, False, "0", None])
def test_other_values_are_not_nonnegative_numbers(value):
    with pytest.raises(ValueError) as info:
        check_nonnegative("wait_s", value)
    assert str(info.value) == f"wait_s must be a finite number >= 0, got {value!r}"


def test_nonnegative_names_the_kind_of_number():
    with pytest.raises(ValueError) as info:
        check_nonnegative("copy_s", -1.0, what="number of seconds")
    assert str(info.value) == "copy_s must be a finite number of seconds >= 0, got -1.0"


def test_seconds_are_returned_as_floats_and_named_when_wrong():
    assert check_seconds("copy_s", 2) == 2.0 and isinstance(check_seconds("copy_s", 2), float)
    with pytest.raises(ValueError, match=r"^launch_s must be a finite number of seconds >= 0"):
        check_seconds("launch_s", math.inf)
