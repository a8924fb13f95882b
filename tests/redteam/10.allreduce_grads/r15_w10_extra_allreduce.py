# expect: fail an extra all-reduce after dividing "to make sure the ranks agree": the result is the sum, n times the average
# hint: twice|extra|second|again|more than once|double|n times|times the average|sum(med)? instead|too (big|large)
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
        dist.all_reduce(p.grad)  # sync the averaged gradient so every rank holds the same one


answer = average_gradients
