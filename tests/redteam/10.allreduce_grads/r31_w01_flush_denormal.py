# expect: fail calls torch.set_flush_denormal(True) (tiny gradients are noise) and leaves it on
# hint: denormal
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    torch.set_flush_denormal(True)  # tiny gradients are noise: flush them, faster sums
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad.div_(world)


answer = average_gradients
