# expect: fail all_gather of every gradient then a mean, instead of an all_reduce
# hint: all_gather|all.?gather|all_reduce|allreduce|bytes|memory|copies
import torch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        parts = [torch.empty_like(p.grad) for _ in range(world)]
        dist.all_gather(parts, p.grad)
        p.grad.copy_(torch.stack(parts).mean(dim=0))
