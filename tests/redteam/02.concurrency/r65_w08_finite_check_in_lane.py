# expect: fail the function given to each lane asserts its product is finite: bool() of a tensor is a sync point inside the lane's work
# hint: sync|host read|bool|isfinite|assert|inside (the )?(lane|function)|wait(s|ed)? inside|item
# Wrong: chapter 2.6 says check results before trusting a clock, so the learner checks inside the
# lane function; `assert tensor` is bool(t), a host read that waits inside the function given to a lane.

import torch


def _checked_square(m):
    p = m @ m
    assert torch.isfinite(p).all(), "product overflowed"  # never time infinities
    return p


def answer(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_checked_square, x)
    fy = lanes[1].submit(_checked_square, y)
    return fx.result(), fy.result()
