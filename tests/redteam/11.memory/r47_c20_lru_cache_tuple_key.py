# expect: pass functools.lru_cache on a helper taking a tuple of tuples and every argument, returning an immutable tuple
# hint:
import functools
import math


@functools.lru_cache(maxsize=256)
def _rank0(shapes, plan, world_size):
    numel = tuple(math.prod(s) for s in shapes)
    if plan == "ddp":
        total = sum(numel)
        return 4 * total, 4 * total, 8 * total + 4 * len(numel)
    if plan == "fsdp2":
        local = sum(((s[0] + world_size - 1) // world_size) * math.prod(s[1:]) for s in shapes)
        return 4 * local, 4 * local, 8 * local + 4 * len(numel)
    if plan == "zero1":
        total = sum(numel)
        owner_load = [0] * world_size
        rank0_elems = rank0_tensors = 0
        for n in sorted(numel, key=lambda n: -n):
            rank = owner_load.index(min(owner_load))  # first minimum: the lowest rank on a tie
            owner_load[rank] += n
            if rank == 0:
                rank0_elems += n
                rank0_tensors += 1
        return 4 * total, 4 * total, 8 * rank0_elems + 4 * rank0_tensors
    raise ValueError(f"plan must be ddp, zero1 or fsdp2, got {plan!r}")


def predict(shapes, plan, world_size):
    key = tuple(tuple(s) for s in shapes)  # a copy: later edits to the caller's list do not matter
    params, grads, optimizer = _rank0(key, plan, world_size)
    return dict(params=params, grads=grads, optimizer=optimizer)


answer = predict
