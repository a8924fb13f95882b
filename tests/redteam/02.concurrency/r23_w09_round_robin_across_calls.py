# expect: fail hands out lanes from a module-level itertools.count turn that persists across calls: the first call is right, the next one puts x on lanes[1] and y on lanes[0] (and with three or more lanes, anywhere)
# hint: cycle|round.?robin|global|state|alternat|swap|lanes\[0\]|lanes\[1\]|next call|second call
import itertools

import torch

_turn = itertools.count()


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    # spread the work over the lanes in turn
    start = next(_turn)
    first = lanes[start % len(lanes)]
    second = lanes[(start + 1) % len(lanes)]
    fx = first.submit(torch.matmul, x, x)
    fy = second.submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
