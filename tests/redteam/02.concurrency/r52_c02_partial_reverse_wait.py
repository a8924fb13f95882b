# expect: pass functools.partial and operator.methodcaller; launches both, then waits in reverse order (y first), returns a tuple
# hint:
import functools
import operator

import torch


def _square(t):
    return functools.partial(torch.matmul, t)  # partial(matmul, t)(t) == t @ t


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(_square(x), x)
    fy = lanes[1].submit(_square(y), y)
    get = operator.methodcaller("result")
    yy = get(fy)  # the order of the waits does not matter once both are launched
    xx = get(fx)
    return xx, yy
answer = run_concurrently
