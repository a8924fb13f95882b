# expect: pass numpy arrays for the element counts, converted back to Python ints, and a stable argsort
# hint:
import numpy as np


def predict(shapes, plan, world_size):
    n = world_size
    numel = np.array([int(np.prod(s, dtype=np.int64)) for s in shapes], dtype=np.int64)
    rows = np.array([s[0] for s in shapes], dtype=np.int64)
    per_row = numel // np.maximum(rows, 1)
    counters = 4 * len(shapes)
    if plan == "ddp":
        p = int(numel.sum())
        return {"params": 4 * p, "grads": 4 * p, "optimizer": 8 * p + counters}
    if plan == "fsdp2":
        kept = int((-(-rows // n) * per_row).sum())
        return {"params": 4 * kept, "grads": 4 * kept, "optimizer": 8 * kept + counters}
    if plan == "zero1":
        order = np.argsort(-numel, kind="stable")
        load = np.zeros(n, dtype=np.int64)
        mine = 0
        for i in order:
            r = int(np.argmin(load))  # argmin returns the first (lowest) rank on a tie
            load[r] += numel[i]
            if r == 0:
                mine += 8 * int(numel[i]) + 4
        p = int(numel.sum())
        return {"params": 4 * p, "grads": 4 * p, "optimizer": mine}
    raise ValueError(plan)


answer = predict
