# expect: pass rebinds p.grad to a new, pre-divided tensor, then sums that one in place (the average lands in the tensor p.grad now holds)
# hint: 
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    n = dist.get_world_size()
    params = [p for p in model.parameters() if p.grad is not None]
    for p in params:
        p.grad = p.grad / n
        dist.all_reduce(p.grad)
