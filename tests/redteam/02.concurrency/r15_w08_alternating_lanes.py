# expect: fail alternates which lane gets x @ x from one call to the next (state between calls); right on the first call only
# hint: altern|between calls|second call|later call|previous call|state|swap|wrong lane|other lane|which lane|toggle|round.?robin|x ?@ ?x.{0,60}lanes?\W*[01]|lanes?\W*[01].{0,60}x ?@ ?x
import itertools

import torch

_turn = itertools.count()


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on two lanes at the same time, spreading the load over calls."""
    i = next(_turn) % 2  # balance: x's product goes to lanes[0], then lanes[1], ...
    fx = lanes[i].submit(torch.matmul, x, x)
    fy = lanes[1 - i].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
