# expect: pass sizes real tensors on the meta device inside a `with torch.device("meta")` block (nothing process-wide changed): nbytes, and FSDP2's shard as torch.chunk(N, dim=0)[0]; ends with the function's name, not answer =
# hint:
# name: predict
import torch


def _zero1_rank0(tensors, world_size):
    """The tensors ZeroRedundancyOptimizer's greedy deal gives rank 0."""
    ordered = sorted(tensors, key=lambda t: t.numel(), reverse=True)
    load = torch.zeros(world_size, dtype=torch.int64, device="cpu")
    mine = []
    for t in ordered:
        rank = int(torch.argmin(load))  # the first minimum: the lowest rank on a tie
        load[rank] += t.numel()
        if rank == 0:
            mine.append(t)
    return mine


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    if plan not in ("ddp", "zero1", "fsdp2"):
        raise ValueError(f"unknown plan {plan!r}")
    with torch.device("meta"):
        tensors = [torch.empty(tuple(s), dtype=torch.float32) for s in shapes]
        if plan == "fsdp2":  # dim-0 shards of ceil(rows / N) rows; rank 0's is always full
            local = [t.chunk(world_size, dim=0)[0] for t in tensors]
            updated = local
        else:
            local = tensors
            updated = tensors if plan == "ddp" else _zero1_rank0(tensors, world_size)
    kept = sum(t.nbytes for t in local)
    moments = sum(2 * t.nbytes for t in updated)
    step = 4 * len(updated)  # one float32 step counter per tensor Adam updates
    return {"params": kept, "grads": kept, "optimizer": moments + step}
