# expect: pass out of place: sums a copy per gradient and rebinds p.grad to the average (list comprehension)
# hint:
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    params = [p for p in model.parameters() if p.grad is not None]
    sums = [p.grad.detach().clone() for p in params]
    for s in sums:
        dist.all_reduce(s, op=dist.ReduceOp.SUM)
    world = float(dist.get_world_size())
    with torch.no_grad():
        for p, s in zip(params, sums):
            p.grad = torch.div(s, world)


answer = average_gradients
