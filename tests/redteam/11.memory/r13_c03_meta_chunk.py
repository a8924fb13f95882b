# expect: pass meta tensors, torch.chunk for FSDP2's shard, comprehension for ZeRO-1
# hint: 
import torch


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    tensors = [torch.empty(tuple(s), device="meta", dtype=torch.float32) for s in shapes]
    if plan == "fsdp2":
        # rank 0's piece: the first of N chunks of ceil(rows / N) rows along dim 0
        mine = [t.chunk(world_size, dim=0)[0] for t in tensors]
        kept = sum(t.numel() * t.element_size() for t in mine)
        return {"params": kept, "grads": kept, "optimizer": 2 * kept + 4 * len(tensors)}
    whole = sum(t.numel() * t.element_size() for t in tensors)
    if plan == "ddp":
        owned = tensors
    elif plan == "zero1":
        loads = [0] * world_size
        owned = []
        for t in sorted(tensors, key=torch.Tensor.numel, reverse=True):  # stable
            rank = loads.index(min(loads))
            loads[rank] += t.numel()
            owned += [t] if rank == 0 else []
    else:
        raise ValueError(f"unknown plan {plan!r}")
    optimizer = sum(2 * t.numel() * t.element_size() + 4 for t in owned)
    print(f"{plan} on {world_size} ranks: rank 0 updates {len(owned)} of {len(tensors)} tensors")
    return {"params": whole, "grads": whole, "optimizer": optimizer}


answer = predict
