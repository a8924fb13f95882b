# expect: fail returns numbers of elements, not bytes (forgets 4 bytes per float32)
# hint: (bytes?|4 ?B|float32|fp32|element)
# name: predict
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    n_tensors = len(sizes)
    if plan == "ddp":
        elems = sum(sizes)
        return {"params": elems, "grads": elems, "optimizer": 2 * elems + n_tensors}
    if plan == "zero1":
        elems = sum(sizes)
        held = [0] * world_size
        mine = []
        order = sorted(range(n_tensors), key=lambda i: -sizes[i])  # stable: module order on ties
        for i in order:
            rank = held.index(min(held))  # fewest elements so far, lowest rank on a tie
            held[rank] += sizes[i]
            if rank == 0:
                mine.append(sizes[i])
        return {"params": elems, "grads": elems,
                "optimizer": 2 * sum(mine) + len(mine)}
    if plan == "fsdp2":
        shard = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": shard, "grads": shard, "optimizer": 2 * shard + n_tensors}
    raise ValueError(f"unknown plan {plan!r}")
