# expect: pass one record per tensor (owner rank, local elements) built first, then summed; extra sanity asserts
# hint:
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Local:
    elements: int  # this tensor's elements whose Adam state rank 0 holds
    kept: int  # its parameter (and gradient) elements on rank 0
    updates: bool = True  # whether rank 0's Adam updates it (and keeps its step counter)


def _records(shapes, plan, n):
    sizes = [math.prod(s) for s in shapes]
    if plan == "ddp":
        return [Local(k, k) for k in sizes]
    if plan == "fsdp2":
        out = []
        for s in shapes:
            rows = s[0]
            per = (rows + n - 1) // n
            local = per * math.prod(s[1:])
            out.append(Local(local, local))
        return out
    if plan == "zero1":
        owner = [None] * len(sizes)
        held = [0] * n
        for i in sorted(range(len(sizes)), key=lambda i: (-sizes[i], i)):
            r = min(range(n), key=lambda r: (held[r], r))
            owner[i] = r
            held[r] += sizes[i]
        assert sum(held) == sum(sizes)
        return [Local(k if owner[i] == 0 else 0, k, owner[i] == 0) for i, k in enumerate(sizes)]
    raise ValueError(plan)


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    recs = _records(shapes, plan, world_size)
    kept = sum(r.kept for r in recs)
    updated = [r for r in recs if r.updates]
    return {
        "params": 4 * kept,
        "grads": 4 * kept,
        "optimizer": sum(8 * r.elements + 4 for r in updated),
    }


answer = predict
