# expect: fail gives parameters without a gradient a zero gradient (p.grad None becomes zeros) instead of leaving them alone
# hint: (none|unused|zero|leave|without (a )?grad|no grad)
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            p.grad = torch.zeros_like(p)  # keep every rank's collectives aligned
        dist.all_reduce(p.grad)
        p.grad.div_(world)
