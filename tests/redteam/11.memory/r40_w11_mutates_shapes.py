# expect: fail sorts the caller's shapes list in place (largest first) for ZeRO-1, changing the caller's argument
# hint: (mutat|in.?place|modif|chang|caller|argument|input|shapes)
# name: predict
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    n_tensors = len(sizes)
    if plan == "ddp":
        elems = sum(sizes)
        return {"params": 4 * elems, "grads": 4 * elems, "optimizer": 8 * elems + 4 * n_tensors}
    if plan == "zero1":
        elems = sum(sizes)
        held = [0] * world_size
        mine = []
        shapes.sort(key=math.prod, reverse=True)  # largest first (stable)
        sizes[:] = [math.prod(s) for s in shapes]
        for i in range(n_tensors):
            rank = held.index(min(held))  # fewest elements so far, lowest rank on a tie
            held[rank] += sizes[i]
            if rank == 0:
                mine.append(sizes[i])
        return {"params": 4 * elems, "grads": 4 * elems,
                "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        shard = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * shard, "grads": 4 * shard, "optimizer": 8 * shard + 4 * n_tensors}
    raise ValueError(f"unknown plan {plan!r}")
