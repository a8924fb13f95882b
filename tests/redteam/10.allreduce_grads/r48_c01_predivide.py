# expect: pass divides each gradient by the world size first, then all-reduces (the sum of the shares is the average)
# hint:
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    with torch.no_grad():
        for name, p in model.named_parameters():
            g = p.grad
            if g is None:
                continue
            g.div_(world)  # each rank's share of the average...
            dist.all_reduce(g, op=dist.ReduceOp.SUM)  # ...summed in place on every rank


answer = average_gradients
