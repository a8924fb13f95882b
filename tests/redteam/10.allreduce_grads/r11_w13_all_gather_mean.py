# expect: fail averages with dist.all_gather and a sum of its own instead of dist.all_reduce, as the prompt asks: every rank holds world_size copies of each gradient
# hint: all_gather.*no all-reduce|all_reduce\(p\.grad\)
# name: average_gradients
# relabelled after the run (was: pass): the prompt asks to sum each gradient over the ranks with dist.all_reduce
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        gathered = [torch.empty_like(p.grad) for _ in range(world)]
        dist.all_gather(gathered, p.grad.contiguous())
        p.grad.copy_(torch.stack(gathered).sum(dim=0) / world)
