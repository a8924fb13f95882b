# expect: fail counts only Adam's two moments (8 bytes per parameter) and forgets the 4-byte step counter Adam keeps per tensor it updates
# hint: step|counter|scalar|4.?byte|per.tensor
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numel = [math.prod(s) for s in shapes]
    if plan in ("ddp", "zero1"):
        params = grads = 4 * sum(numel)
        if plan == "ddp":
            optimizer = 8 * sum(numel)
        else:
            order = sorted(range(len(numel)), key=lambda i: numel[i], reverse=True)
            sizes = [0] * world_size
            mine = 0
            for i in order:
                rank = sizes.index(min(sizes))
                sizes[rank] += numel[i]
                if rank == 0:
                    mine += numel[i]
            optimizer = 8 * mine
    elif plan == "fsdp2":
        local = [math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes]
        params = grads = 4 * sum(local)
        optimizer = 8 * sum(local)
    else:
        raise ValueError(f"unknown plan {plan!r}")
    return {"params": params, "grads": grads, "optimizer": optimizer}


answer = predict
