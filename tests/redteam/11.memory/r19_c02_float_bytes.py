# expect: pass byte counts computed in floats (4.0 bytes a number): whole-number floats, equal to the bytes
# hint: 
import math

FP32 = 4.0  # bytes per float32 number
STEP = 4.0  # Adam's step counter, one per tensor it updates


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    if plan == "fsdp2":
        local = [math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes]
        return {"params": FP32 * sum(local), "grads": FP32 * sum(local),
                "optimizer": 2 * FP32 * sum(local) + STEP * len(local)}
    if plan == "ddp":
        owned = sizes
    elif plan == "zero1":
        load = [0.0] * world_size
        owned = []
        for size in sorted(sizes, key=lambda x: -x):  # sorted() is stable: module order on ties
            rank = load.index(min(load))
            load[rank] += size
            if rank == 0:
                owned.append(size)
    else:
        raise ValueError(f"unknown plan {plan!r}")
    return {"params": FP32 * sum(sizes), "grads": FP32 * sum(sizes),
            "optimizer": 2 * FP32 * sum(owned) + STEP * len(owned)}


answer = predict
