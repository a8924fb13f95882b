"""The cases of chapter 7's checkers, drawn from a generator the checker seeds afresh:
``07.relu_mul``'s sizes, dtypes and layouts, and ``07.rms_norm``'s row
lengths, scales and layouts.

What it is not: a check; :mod:`.ch07_triton` runs the cases.
"""

from __future__ import annotations

import torch

from ._ch07_answers import random_input

__all__ = ["relu_mul_cases", "rms_norm_cases"]


def relu_mul_cases(gen):
    """``(x, y, what, layout)`` for each of 07.relu_mul's cases: ``layout`` says how the
    inputs are laid out where they are not contiguous, else None."""
    odd = 4097 + 2 * int(torch.randint(500, 2500, (1,), generator=gen))  # odd: no block fits
    contiguous = [
        ((1,), "n = 1"),
        ((1000,), "n = 1000"),
        ((4096,), "n = 4096"),
        ((odd,), "an odd n between 5,000 and 9,100"),
        ((37, 129), "a 37 x 129 matrix"),
    ]
    for shape, what in contiguous:
        yield random_input(shape, gen), random_input(shape, gen), what, None
    # The output takes x's dtype, not float32. (Not bfloat16: Triton's interpreter, on numpy,
    # rounds it otherwise than torch, and has written garbage into a bfloat16 output.)
    x, y = (random_input((1000,), gen).half() for _ in range(2))
    yield x, y, "n = 1000 in float16", None
    # y's dtype need not be x's (the prompt says so): the output takes x's, either way.
    x, y = random_input((1000,), gen), random_input((1000,), gen).half()
    yield x, y, "n = 1000, x in float32 and y in float16", None
    x, y = random_input((1000,), gen).half(), random_input((1000,), gen)
    yield x, y, "n = 1000, x in float16 and y in float32", None
    base = random_input((129, 37), gen)
    yield base.t(), random_input((37, 129), gen), "x transposed (37 x 129)", "x is transposed"
    wide = random_input((2 * 3001,), gen)
    yield (
        random_input((3001,), gen),
        wide[::2],
        "y = every other element of a longer vector (n = 3001)",
        "y is every other element of a longer vector: y.stride(0) == 2",
    )
    yield (  # its last stride is 1, as a contiguous tensor's: x.stride(-1) == 1 is not enough
        random_input((37, 200), gen)[:, 3:132],
        random_input((37, 129), gen),
        "x = a 37 x 129 slice of a 37 x 200 matrix",
        "x is a slice of a wider matrix's columns: x.stride(1) == 1, but its rows are "
        "x.stride(0) = 200 elements apart, not 129 (x.is_contiguous() is False)",
    )


def rms_norm_cases(gen):
    """``(x, eps, what, layout)`` for each of 07.rms_norm's cases (``eps`` None: not
    given, the signature's default)."""
    odd = 301 + 2 * int(torch.randint(0, 300, (1,), generator=gen))
    shapes = [((1, 1), "a 1 x 1 matrix"), ((4, 1000), "a 4 x 1000 matrix")]
    shapes += [((3, 1024), "a 3 x 1024 matrix"), ((6, odd), "6 rows of an odd length")]
    shapes += [((64, 65), "a 64 x 65 matrix"), ((2, 1500), "a 2 x 1500 matrix")]
    shapes += [((130, 33), "a 130 x 33 matrix")]  # more rows than a batch of 64 or 128
    for shape, what in shapes:
        x = random_input(shape, gen, scale=3.0)
        yield x, 1e-6, what, None
    tiny = random_input((5, 333), gen, scale=1e-4)  # rows whose mean square is below eps
    yield tiny, 1e-5, "rows of tiny values (about 1e-4) with eps = 1e-5", None
    wide = random_input((5, 1000), gen)
    yield (
        wide[:, 100:433],
        1e-6,
        "x = a 5 x 333 slice of a 5 x 1000 matrix",
        "rows of x are x.stride(0) = 1000 elements apart, not 333: pass x.stride(0) to the "
        "kernel as the distance from one row's start to the next (or call x.contiguous() "
        "first)",
    )
    yield (
        random_input((200, 7), gen).t(),
        1e-6,
        "x transposed (7 x 200)",
        "x is transposed: x.stride(1) = 7, so a row's elements are not adjacent; call "
        "x.contiguous() first when x.stride(1) != 1",
    )
    # values in the hundreds: their squares overflow float16 (largest 65504) unless upcast
    big = random_input((4, 300), gen, scale=200.0).half()
    yield big, 1e-6, "a 4 x 300 float16 matrix of values in the hundreds", None
    # no eps given: the signature's default, 1e-6, which rows of tiny values tell from 1e-5
    tiny = random_input((3, 200), gen, scale=1e-4)
    yield tiny, None, "rms_norm(x) without eps, rows of tiny values (about 1e-4)", None
    yield (
        random_input((5, 602), gen)[:, ::2],
        1e-6,
        "x = every other column of a 5 x 602 matrix",
        "x is every other column of a wider matrix: x.stride(1) = 2, so a row's elements "
        "are not adjacent; call x.contiguous() first when x.stride(1) != 1 (or pass "
        "x.stride(1) to the kernel)",
    )
