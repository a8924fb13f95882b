# expect: fail counts elements and bytes in numpy int32, which wraps around once a rank holds 2 GiB or more (large models)
# hint: overflow|int32|int64|wrap|large|dtype|2 ?gib|integer
import numpy as np


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = np.array([np.prod(s, dtype=np.int32) for s in shapes], dtype=np.int32)
    four = np.int32(4)
    with np.errstate(over="ignore"):
        total = four * numels.sum(dtype=np.int32)
        if plan == "ddp":
            got = (total, total, 2 * total + four * len(numels))
        elif plan == "zero1":
            loads = np.zeros(world_size, dtype=np.int32)
            owned = []
            for i in np.argsort(-numels, kind="stable"):  # largest first, ties in order
                rank = int(np.argmin(loads))  # the first (lowest) rank on a tie
                loads[rank] += numels[i]
                if rank == 0:
                    owned.append(numels[i])
            moments = np.int32(8) * np.array(owned, dtype=np.int32).sum(dtype=np.int32)
            got = (total, total, moments + four * len(owned))
        elif plan == "fsdp2":
            rows = np.array([-(-s[0] // world_size) for s in shapes], dtype=np.int32)
            rest = np.array([np.prod(s[1:], dtype=np.int32) for s in shapes], dtype=np.int32)
            shard = four * (rows * rest).sum(dtype=np.int32)
            got = (shard, shard, 2 * shard + four * len(shapes))
        else:
            raise ValueError(f"unknown plan {plan!r}")
    return dict(zip(("params", "grads", "optimizer"), (int(v) for v in got)))


answer = predict
