# expect: pass sizes via torch.Size on the meta device, FSDP2 by ceil rows times a row's numel, numbers returned as ints
# hint: 
import torch


def answer(shapes, plan, world_size):
    ts = [torch.empty(tuple(s), device="meta") for s in shapes]
    total = sum(t.numel() for t in ts)
    if plan == "fsdp2":
        local = sum(-(-t.shape[0] // world_size) * (t[0].numel() if t.dim() > 1 else 1) for t in ts)
        return {"params": int(4 * local), "grads": int(4 * local), "optimizer": int(8 * local + 4 * len(ts))}
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(ts)}
    if plan == "zero1":
        load = [0] * world_size
        opt0 = 0
        order = sorted(enumerate(ts), key=lambda it: (-it[1].numel(), it[0]))
        for _, t in order:
            r = load.index(min(load))
            load[r] += t.numel()
            if r == 0:
                opt0 += 8 * t.numel() + 4
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt0}
    raise ValueError(f"unknown plan {plan!r}")
