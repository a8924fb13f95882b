# expect: fail divides by the world size both before and after the all-reduce (average / n)
# hint: twice|two times|n ?\*\* ?2|n²|squared?|too small|once too many|more than once|both before and after|double
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        p.grad.div_(world)  # as DDP's hook does: divide first, so the sum is the average
        dist.all_reduce(p.grad)
        p.grad.div_(world)  # sum -> average


answer = average_gradients
