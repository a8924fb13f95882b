# expect: pass sizes meta tensors of dtype float32 inside a torch.device("meta") block (nbytes, chunk(N)[0] as FSDP2's padded shard, a stable torch.sort for ZeRO-1's order)
# hint:
import torch


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    with torch.device("meta"):
        tensors = [torch.empty(tuple(s), dtype=torch.float32) for s in shapes]
    step = torch.empty((), dtype=torch.float32, device="meta").nbytes  # Adam's step counter
    full = sum(t.nbytes for t in tensors)
    if plan == "ddp":
        return {"params": full, "grads": full, "optimizer": 2 * full + step * len(tensors)}
    if plan == "zero1":
        sizes = torch.tensor([t.numel() for t in tensors], dtype=torch.int64)
        order = torch.sort(sizes, descending=True, stable=True).indices.tolist()
        loads = [0] * world_size
        mine = []
        for i in order:
            rank = loads.index(min(loads))
            loads[rank] += tensors[i].numel()
            if rank == 0:
                mine.append(tensors[i])
        return {"params": full, "grads": full,
                "optimizer": sum(2 * t.nbytes + step for t in mine)}
    if plan == "fsdp2":
        # torch.chunk's first piece has ceil(rows / N) rows, the size every padded shard takes
        shard = sum(t.chunk(world_size, dim=0)[0].nbytes for t in tensors)
        return {"params": shard, "grads": shard, "optimizer": 2 * shard + step * len(tensors)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
