# expect: pass float arithmetic (exact for these sizes) with a comprehension-based deal and match statement
# hint:
import math


def predict(shapes, plan, world_size):
    sizes = [float(math.prod(s)) for s in shapes]
    psi = math.fsum(sizes)
    match plan:
        case "ddp":
            params = grads = 4.0 * psi
            opt = 8.0 * psi + 4.0 * len(sizes)
        case "zero1":
            params = grads = 4.0 * psi
            loads = [0.0] * world_size
            owner = {}
            for i, size in sorted(enumerate(sizes), key=lambda t: (-t[1], t[0])):
                r = loads.index(min(loads))
                loads[r] += size
                owner[i] = r
            opt = sum(8.0 * sizes[i] + 4.0 for i, r in owner.items() if r == 0)
        case "fsdp2":
            kept = math.fsum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
            params = grads = 4.0 * kept
            opt = 8.0 * kept + 4.0 * len(sizes)
        case _:
            raise ValueError(plan)
    return {"params": params, "grads": grads, "optimizer": opt}


answer = predict
