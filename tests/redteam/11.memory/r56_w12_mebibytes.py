# expect: fail returns the sizes in MiB (bytes / 2**20, floats), as the chapter prints them, instead of bytes
# hint: byte|unit|MiB|mebi|2\*\*20|scale|int
import math

MiB = 2**20


def predict(shapes, plan, world_size):
    """Rank 0's memory of parameters, gradients and Adam's state under plan, fp32."""
    numel = [math.prod(s) for s in shapes]
    total = sum(numel)
    if plan == "ddp":
        out = {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(numel)}
    elif plan == "zero1":
        sizes = [0] * world_size
        mine = []
        for n in sorted(numel, reverse=True):
            rank = sizes.index(min(sizes))
            sizes[rank] += n
            if rank == 0:
                mine.append(n)
        out = {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    elif plan == "fsdp2":
        local = [math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes]
        out = {
            "params": 4 * sum(local),
            "grads": 4 * sum(local),
            "optimizer": 8 * sum(local) + 4 * len(local),
        }
    else:
        raise ValueError(f"unknown plan {plan!r}")
    return {k: v / MiB for k, v in out.items()}


answer = predict
