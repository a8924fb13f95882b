# expect: fail It launches the all-reduces with async_op=True and divides without waiting on the handles, so the division races gloo's background reduction and the function returns before the sums are in p.grad.
# hint: wait|async|handle|race
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad, async_op=True)  # don't block: overlap them
        p.grad.div_(world)
