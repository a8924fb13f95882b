"""``02.concurrency``'s reading of the pair an answer returned (:func:`check_results`): its
form, its order, its dtype, and a wrong value named for what it is (a product in a lower
precision, an elementwise square)."""

from __future__ import annotations

import torch

from ._ch02_lanes import LoggedFuture
from ._util import CheckFailed

__all__ = ["check_results"]


def _what_instead(got: torch.Tensor, want: torch.Tensor) -> str:
    """Why ``got`` is not the product ``want``, where a common slip explains it."""
    if got.shape != want.shape:
        return f": its shape is {tuple(got.shape)}, the product's {tuple(want.shape)}"
    scale = want.abs().max().item() or 1.0
    error = (got.double() - want.double()).abs().max().item() / scale
    if error < 2e-2:  # float16 keeps 11 bits, bfloat16 8: a product rounded there
        return (
            f", though close to it (off by {error:.1e} of its largest value, where float32's "
            "own rounding stays far below): computed in a lower precision (a cast to float16 "
            "or bfloat16, or autocast) and cast back. Multiply the inputs as they are"
        )
    return ""


def check_results(result, xx: torch.Tensor, yy: torch.Tensor) -> None:
    """The pair the answer returned: two tensors, (x @ x, y @ y), each in its inputs' dtype,
    neither made under inference mode; a wrong value is named for what it is."""
    if isinstance(result, torch.Tensor):
        raise CheckFailed(
            f"you returned one tensor of shape {tuple(result.shape)}, not a pair: stacking or "
            "joining the products copies both into a new tensor (one more pass over memory, "
            "and on two GPUs torch.stack refuses tensors on different devices). Return the "
            "lanes' results as they are, the tuple (x @ x, y @ y)"
        )
    if not isinstance(result, tuple | list) or len(result) != 2:
        got = f"a {type(result).__name__} of {len(result)}" if isinstance(result, tuple | list) \
            else "None" if result is None else f"a {type(result).__name__}"  # fmt: skip
        raise CheckFailed(f"you returned {got}: return a pair, (x @ x, y @ y)")
    if any(isinstance(r, LoggedFuture) for r in result):
        raise CheckFailed(
            "you returned futures: call .result() on each (after both are launched) and "
            "return the tensors"
        )
    if not all(isinstance(r, torch.Tensor) for r in result):
        raise CheckFailed("return the two products as tensors: (x @ x, y @ y)")
    if all(
        r.shape == w.shape and r.dtype == w.dtype for r, w in zip(result, (yy, xx), strict=True)
    ):
        if xx.shape != yy.shape and torch.allclose(result[0].cpu(), yy):
            raise CheckFailed("the results are swapped: return (x @ x, y @ y) in that order")
    for r, w, name in zip(result, (xx, yy), ("x @ x", "y @ y"), strict=True):
        if r.is_inference():
            raise CheckFailed(
                f"{name} came back as an inference tensor (made under torch.inference_mode()): "
                "the caller can neither change it in place outside inference mode nor use it "
                "in a graph. Return the products as x @ x makes them"
            )
        if r.dtype != w.dtype:
            raise CheckFailed(
                f"{name} came back as {r.dtype}, its inputs are {w.dtype}: return each lane's "
                "result as it is (a .double() or .to(dtype) is a copy of the whole matrix)"
            )
    ok = [
        r.shape == w.shape and torch.allclose(r.cpu(), w)
        for r, w in zip(result, (xx, yy), strict=True)
    ]
    if not all(ok):
        swapped = result[0].shape == yy.shape and torch.allclose(result[0].cpu(), yy)
        if swapped:
            raise CheckFailed("the results are swapped: return (x @ x, y @ y) in that order")
        which = "first" if not ok[0] else "second"
        want = "x @ x" if not ok[0] else "y @ y"
        got, right = (result[0], xx) if not ok[0] else (result[1], yy)
        raise CheckFailed(f"the {which} result is not {want}" + _what_instead(got.cpu(), right))
