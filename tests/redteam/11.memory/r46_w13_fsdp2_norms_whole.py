# expect: fail FSDP2 keeps 1-D tensors (norm gains, biases) whole instead of sharding every tensor
# hint: 1-?d|norm|vector|bias|every tensor|whole|gain
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "zero1":
        loads, mine = [0] * world_size, []
        for n in sorted(sizes, reverse=True):
            r = loads.index(min(loads))
            loads[r] += n
            if r == 0:
                mine.append(n)
        opt = 8 * sum(mine) + 4 * len(mine)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    own = 0
    for s in shapes:
        if len(s) < 2:  # a norm's gain is tiny: replicated, as tensor parallelism keeps it
            own += math.prod(s)
        else:
            own += math.ceil(s[0] / world_size) * math.prod(s[1:])
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(sizes)}


answer = predict
