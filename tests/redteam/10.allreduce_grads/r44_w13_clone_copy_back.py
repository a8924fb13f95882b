# expect: pass judged right: the prompt asks for the average in p.grad and counts collectives, not a copy on the gradient's own device (as r21_c05 in 02.concurrency). Written as wrong: all-reduces a clone of each gradient and copies the quotient back with p.grad.copy_(c / world): p.grad is right and the same tensor, but each step makes two extra copies of every gradient (the clone and the quotient) where in-place all_reduce and div_ need none.
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        c = p.grad.detach().clone()
        dist.all_reduce(c)
        p.grad.copy_(c / world)
