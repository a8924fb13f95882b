# expect: fail gives parameters without a gradient a zero p.grad (so every rank sends the same list) instead of leaving them alone, which changes the caller's model and lets optimizers with weight decay or momentum move an unused layer.
# hint: none|leave|alone|unused|zero|without a grad
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            p.grad = torch.zeros_like(p)  # every rank then calls the same all-reduces
        dist.all_reduce(p.grad)
        p.grad /= world


answer = average_gradients
