# expect: fail sets torch's default device to meta to size the tensors and never puts it back (process-wide setting left changed)
# hint: default.?device|set_default_device|meta|process.?wide|setting|restore|put back|left
import torch


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    torch.set_default_device("meta")  # shapes without storage: free to build
    tensors = [torch.empty(tuple(s), dtype=torch.float32) for s in shapes]
    total = sum(t.nbytes for t in tensors)
    if plan == "ddp":
        return {"params": total, "grads": total, "optimizer": 2 * total + 4 * len(tensors)}
    if plan == "zero1":
        loads = [0] * world_size
        owned = []
        for t in sorted(tensors, key=lambda t: t.numel(), reverse=True):
            rank = loads.index(min(loads))
            loads[rank] += t.numel()
            if rank == 0:
                owned.append(t)
        moments = 2 * sum(t.nbytes for t in owned)
        return {"params": total, "grads": total, "optimizer": moments + 4 * len(owned)}
    if plan == "fsdp2":
        shard = sum(t.chunk(world_size)[0].nbytes if t.dim() else t.nbytes for t in tensors)
        return {"params": shard, "grads": shard, "optimizer": 2 * shard + 4 * len(tensors)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
