# expect: fail ZeRO-1 greedy to the emptiest rank but in module order, not largest first
# hint: largest first|sort|size order|descending|biggest|order
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    n = world_size
    numels = [math.prod(s) for s in shapes]
    psi = sum(numels)
    if plan == "ddp":
        optimizer = 8 * psi + 4 * len(shapes)
        params = grads = 4 * psi
    elif plan == "zero1":
        held = [0] * n
        optimizer = 0
        for size in numels:  # each tensor to the rank that holds the fewest elements so far
            rank = min(range(n), key=lambda r: held[r])
            held[rank] += size
            if rank == 0:
                optimizer += 8 * size + 4
        params = grads = 4 * psi
    elif plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        params = grads = 4 * local
        optimizer = 8 * local + 4 * len(shapes)
    else:
        raise ValueError(f"unknown plan {plan!r}")
    return {"params": params, "grads": grads, "optimizer": optimizer}


answer = predict
