# expect: fail sizes the tensors on the meta device by calling torch.set_default_device("meta") and never puts the default device back (a process-wide setting left changed); the numbers are right
# hint: default.?device|device|process.?wide|setting|changed|meta|put back|restore
import torch


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    torch.set_default_device("meta")  # no storage: free even for a 70B model's shapes
    tensors = [torch.empty(tuple(s), dtype=torch.float32) for s in shapes]
    total = sum(t.nbytes for t in tensors)
    if plan == "ddp":
        return {"params": total, "grads": total, "optimizer": 2 * total + 4 * len(tensors)}
    if plan == "zero1":
        sizes = [0] * world_size
        mine = []
        for t in sorted(tensors, key=lambda t: t.numel(), reverse=True):
            rank = sizes.index(min(sizes))
            sizes[rank] += t.numel()
            if rank == 0:
                mine.append(t.nbytes)
        return {"params": total, "grads": total, "optimizer": 2 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(t.chunk(world_size, dim=0)[0].nbytes for t in tensors)
        return {"params": local, "grads": local, "optimizer": 2 * local + 4 * len(tensors)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
