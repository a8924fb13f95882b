# expect: fail counts a tensor's elements from its first two dimensions only, wrong for 3-D and higher shapes
# hint: numel|elements|dimension|shape|prod|3-?d|trailing
import math


def _rows_cols(shape):
    rows = shape[0]
    cols = shape[1] if len(shape) > 1 else 1  # a matrix or a vector
    return rows, cols


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    dims = [_rows_cols(s) for s in shapes]
    numels = [r * c for r, c in dims]
    total = 4 * sum(numels)
    if plan == "ddp":
        return {"params": total, "grads": total, "optimizer": 2 * total + 4 * len(numels)}
    if plan == "zero1":
        loads = [0] * world_size
        owned = []
        for n in sorted(numels, reverse=True):
            rank = loads.index(min(loads))
            loads[rank] += n
            if rank == 0:
                owned.append(n)
        return {"params": total, "grads": total, "optimizer": 8 * sum(owned) + 4 * len(owned)}
    if plan == "fsdp2":
        shard = 4 * sum(math.ceil(r / world_size) * c for r, c in dims)
        return {"params": shard, "grads": shard, "optimizer": 2 * shard + 4 * len(numels)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
