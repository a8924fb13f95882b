# expect: pass builds a per-tensor table (what rank 0 keeps of each tensor, whether it updates it) and sums it, accepting any iterable of shapes
# hint: 
# name: predict
import math


def _owner_of_each(numels, n):
    """ZeroRedundancyOptimizer's dealing: the rank each tensor goes to."""
    owner = [None] * len(numels)
    totals = [0] * n
    for k in sorted(range(len(numels)), key=lambda k: (-numels[k], k)):
        r = totals.index(min(totals))
        owner[k] = r
        totals[r] += numels[k]
    return owner


def predict(shapes, plan, world_size):
    shapes = [tuple(int(x) for x in s) for s in shapes]
    numels = [math.prod(s) for s in shapes]
    if plan == "ddp":
        table = [(n, True) for n in numels]
    elif plan == "zero1":
        owner = _owner_of_each(numels, world_size)
        table = [(n, owner[k] == 0) for k, n in enumerate(numels)]
    elif plan == "fsdp2":
        table = [((s[0] + world_size - 1) // world_size * math.prod(s[1:]), True) for s in shapes]
    else:
        raise ValueError(f"unknown plan {plan!r}")
    kept = sum(n for n, _ in table) if plan == "fsdp2" else sum(numels)
    updated = [n for n, mine in table if mine]
    return dict(params=kept * 4, grads=kept * 4, optimizer=sum(8 * n + 4 for n in updated))
