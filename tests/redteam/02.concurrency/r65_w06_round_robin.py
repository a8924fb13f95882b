# expect: fail lanes alternated between calls (round robin): on every second call x @ x runs on lanes[1] and y @ y on lanes[0]
# hint: second call|swap|alternat|round.?robin|wrong lane|lanes\[0\]|lanes\[1\]|x @ x on|each call|call count
# Wrong: the learner balances load across calls; the first call is right, but from the second on
# the products run on the other lanes (on two GPUs, on the lane of the wrong device).

import itertools

import torch

_calls = itertools.count()


def answer(x, y, lanes):
    """(x @ x, y @ y), on two lanes at the same time, taking the lanes in turn across calls."""
    first, second = (lanes[0], lanes[1]) if next(_calls) % 2 == 0 else (lanes[1], lanes[0])
    fx = first.submit(torch.matmul, x, x)
    fy = second.submit(torch.matmul, y, y)
    return fx.result(), fy.result()
