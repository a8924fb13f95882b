# expect: fail ZeRO-1 tensors dealt round-robin in module order (shapes[rank::N]), not largest first to the emptiest rank
# hint: largest first|fewest|sort|round.?robin|greedy|dealt|deal|partition|emptiest
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
        mine = numels[0::n]  # rank 0 owns every N-th tensor, as in exercise 10.4
        optimizer = sum(8 * m + 4 for m in mine)
        params = grads = 4 * psi
    elif plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        params = grads = 4 * local
        optimizer = 8 * local + 4 * len(shapes)
    else:
        raise ValueError(f"unknown plan {plan!r}")
    return {"params": params, "grads": grads, "optimizer": optimizer}


answer = predict
