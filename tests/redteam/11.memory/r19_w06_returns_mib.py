# expect: fail returns MiB (bytes / 2**20), as the chapter prints them, instead of bytes
# hint: bytes|MiB|2\*\*20|1024|units?
import math

MiB = 2**20


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(s) for s in shapes]
    psi, n = sum(numels), world_size
    if plan == "ddp":
        got = {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + 4 * len(numels)}
    elif plan == "zero1":
        load, mine = [0] * n, []
        for size in sorted(numels, reverse=True):
            rank = load.index(min(load))
            load[rank] += size
            if rank == 0:
                mine.append(size)
        got = {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    elif plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        got = {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(numels)}
    else:
        raise ValueError(f"unknown plan {plan!r}")
    return {k: v / MiB for k, v in got.items()}


answer = predict
