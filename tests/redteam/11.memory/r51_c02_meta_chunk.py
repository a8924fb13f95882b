# expect: pass meta tensors cut with torch.chunk for FSDP2's shards, a plain loop and list.index for ZeRO-1
# hint:
import torch


def _numel(shape):
    return torch.empty(shape, device="meta").numel()


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    every = sum(_numel(s) for s in shapes)
    replicated = {"params": 4 * every, "grads": 4 * every}
    if plan == "ddp":
        return {**replicated, "optimizer": 8 * every + 4 * len(shapes)}
    if plan == "zero1":
        ranked = sorted(enumerate(shapes), key=lambda pair: _numel(pair[1]), reverse=True)
        loads = [0] * world_size
        kept = []
        for _, shape in ranked:
            rank = loads.index(min(loads))  # the first, i.e. lowest, of the least loaded
            loads[rank] += _numel(shape)
            if rank == 0:
                kept.append(_numel(shape))
        return {**replicated, "optimizer": sum(8 * k + 4 for k in kept)}
    if plan == "fsdp2":
        mine = 0
        for shape in shapes:
            meta = torch.empty(shape, device="meta")
            mine += meta.chunk(world_size, dim=0)[0].numel()  # chunks of ceil(rows / N) rows
        return {"params": 4 * mine, "grads": 4 * mine, "optimizer": 8 * mine + 4 * len(shapes)}
    raise ValueError(plan)


answer = predict
