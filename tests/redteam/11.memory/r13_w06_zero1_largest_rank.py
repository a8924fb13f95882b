# expect: fail ZeRO-1: the rank holding the most state, not rank 0
# hint: rank 0|rank zero|largest rank|holds the most|max
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
        state = [0] * n
        for size in sorted(numels, reverse=True):
            rank = held.index(min(held))
            held[rank] += size
            state[rank] += 8 * size + 4
        optimizer = max(state)  # the rank that holds the most sets the memory we need
        params = grads = 4 * psi
    elif plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        params = grads = 4 * local
        optimizer = 8 * local + 4 * len(shapes)
    else:
        raise ValueError(f"unknown plan {plan!r}")
    return {"params": params, "grads": grads, "optimizer": optimizer}


answer = predict
