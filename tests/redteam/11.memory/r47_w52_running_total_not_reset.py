# expect: fail module-level running total of elements never reset: every call after the first adds the earlier models
# hint: running total|accumulat|global|module-level|reset|earlier call|previous call|between calls|state
import math

_elements = 0  # elements counted so far
_tensors = 0


def predict(shapes, plan, world_size):
    global _elements, _tensors
    for s in shapes:
        if plan == "fsdp2":
            _elements += math.ceil(s[0] / world_size) * math.prod(s[1:])
        else:
            _elements += math.prod(s)
        _tensors += 1
    if plan == "zero1":
        sizes = [math.prod(s) for s in shapes]
        held, count = [0] * world_size, [0] * world_size
        for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
            r = held.index(min(held))
            held[r] += sizes[i]
            count[r] += 1
        return {"params": 4 * _elements, "grads": 4 * _elements,
                "optimizer": 8 * held[0] + 4 * count[0]}
    return {"params": 4 * _elements, "grads": 4 * _elements,
            "optimizer": 8 * _elements + 4 * _tensors}


answer = predict
