# expect: pass ZeRO-1 with a heap of (elements, rank), ceil by negated floor division, a dispatch dict of small functions
# hint: 
import heapq
from functools import reduce
from operator import mul


def _n(shape):
    return reduce(mul, shape, 1)


def _ddp(shapes, N):
    t = sum(map(_n, shapes))
    return {"params": 4 * t, "grads": 4 * t, "optimizer": 2 * 4 * t + 4 * len(shapes)}


def _zero1(shapes, N):
    t = sum(map(_n, shapes))
    heap = [(0, r) for r in range(N)]
    mine = []
    for i in sorted(range(len(shapes)), key=lambda i: _n(shapes[i]), reverse=True):
        load, r = heapq.heappop(heap)
        if r == 0:
            mine.append(_n(shapes[i]))
        heapq.heappush(heap, (load + _n(shapes[i]), r))
    return {"params": 4 * t, "grads": 4 * t, "optimizer": 8 * sum(mine) + 4 * len(mine)}


def _fsdp2(shapes, N):
    local = sum(-(-s[0] // N) * _n(s[1:]) for s in shapes)
    return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}


_PLANS = {"ddp": _ddp, "zero1": _zero1, "fsdp2": _fsdp2}


def answer(shapes, plan, world_size):
    return _PLANS[plan](list(shapes), world_size)
