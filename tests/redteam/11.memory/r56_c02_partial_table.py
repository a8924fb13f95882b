# expect: pass functools.partial over a general per-tensor table (bytes per number, moments, counter size as keywords); every tensor gets (owner?, local elements) and the totals are summed
# hint:
import functools
import math


def _rank0_tensors(shapes, plan, world_size):
    """For each tensor: (elements rank 0 keeps of it, whether rank 0's Adam updates it)."""
    if plan == "ddp":
        return [(math.prod(s), True) for s in shapes]
    if plan == "fsdp2":
        return [(math.ceil(s[0] / world_size) * math.prod(s[1:]), True) for s in shapes]
    if plan == "zero1":
        numels = [math.prod(s) for s in shapes]
        ranked = sorted(enumerate(numels), key=lambda item: (-item[1], item[0]))
        load = [0] * world_size
        owner = {}
        for index, n in ranked:
            rank = min(range(world_size), key=lambda r: (load[r], r))
            load[rank] += n
            owner[index] = rank
        return [(n, owner[i] == 0) for i, n in enumerate(numels)]
    raise ValueError(f"plan must be 'ddp', 'zero1' or 'fsdp2', got {plan!r}")


def _state_bytes(shapes, plan, world_size, *, number_bytes, moments, counter_bytes):
    table = _rank0_tensors(shapes, plan, world_size)
    kept = sum(n for n, _ in table)
    updated = [n for n, mine in table if mine]
    if plan == "zero1":  # parameters and gradients stay whole on every rank
        kept = sum(math.prod(s) for s in shapes)
    return {
        "params": number_bytes * kept,
        "grads": number_bytes * kept,
        "optimizer": moments * number_bytes * sum(updated) + counter_bytes * len(updated),
    }


predict = functools.partial(_state_bytes, number_bytes=4, moments=2, counter_bytes=4)

answer = predict
