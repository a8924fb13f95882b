# expect: pass
# hint:
# Right: a general predictor for any rank and element size, bound with functools.partial
# to rank 0 and 4-byte floats; FSDP2's shard read from torch.chunk on a meta tensor.
import functools
import math

import torch


def _numels_for_rank(shapes, plan, world_size, rank):
    """Elements of parameters this rank keeps, and the tensors whose Adam state it keeps."""
    numels = [math.prod(s) for s in shapes]
    if plan == "ddp":
        return sum(numels), numels
    if plan == "zero1":
        held = [0] * world_size
        owned = {r: [] for r in range(world_size)}
        for numel in sorted(numels, key=lambda x: -x):
            r = min(range(world_size), key=lambda k: (held[k], k))
            held[r] += numel
            owned[r].append(numel)
        return sum(numels), owned[rank]
    if plan == "fsdp2":
        local = []
        for s in shapes:
            # FSDP2 cuts dim 0 as torch.chunk does; the meta device allocates nothing
            chunks = torch.empty(tuple(s), device="meta").chunk(world_size, dim=0)
            local.append(chunks[rank].numel() if rank < len(chunks) else 0)
        return sum(local), local
    raise ValueError(f"unknown plan {plan!r}")


def predict_rank(shapes, plan, world_size, *, rank, element_size, counter_size):
    kept, adam = _numels_for_rank(shapes, plan, world_size, rank)
    return {
        "params": element_size * kept,
        "grads": element_size * kept,
        "optimizer": 2 * element_size * sum(adam) + counter_size * len(adam),
    }


answer = functools.partial(predict_rank, rank=0, element_size=4, counter_size=4)
