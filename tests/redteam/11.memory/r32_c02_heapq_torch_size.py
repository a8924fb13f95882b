# expect: pass heapq for the least-loaded rank, torch.Size.numel for element counts, a dispatch table
# hint:
import heapq

import torch


def _numel(shape):
    return torch.Size(shape).numel()


def _ddp(shapes, n):
    psi = sum(map(_numel, shapes))
    return 4 * psi, 4 * psi, 8 * psi + 4 * len(shapes)


def _zero1(shapes, n):
    psi = sum(map(_numel, shapes))
    heap = [(0, r) for r in range(n)]
    rank0 = 0
    ranked = sorted(enumerate(shapes), key=lambda t: (-_numel(t[1]), t[0]))
    for _, shape in ranked:
        held, r = heapq.heappop(heap)
        if r == 0:
            rank0 += 8 * _numel(shape) + 4
        heapq.heappush(heap, (held + _numel(shape), r))
    return 4 * psi, 4 * psi, rank0


def _fsdp2(shapes, n):
    kept = sum(-(-s[0] // n) * (_numel(s) // s[0]) if s[0] else 0 for s in shapes)
    return 4 * kept, 4 * kept, 8 * kept + 4 * len(shapes)


PLANS = {"ddp": _ddp, "zero1": _zero1, "fsdp2": _fsdp2}


def predict(shapes, plan, world_size):
    p, g, o = PLANS[plan](list(shapes), world_size)
    return dict(zip(("params", "grads", "optimizer"), (p, g, o)))


answer = predict
