# expect: fail gives parameters without a gradient a zero gradient; the prompt says to leave p.grad None
# hint: none|no grad|without (a )?grad|unused|leave|zero(s|ed)? grad|left alone
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        # every rank must call the same collectives in the same order, so a parameter that
        # forward did not use gets a zero gradient and takes part like the others
        if p.grad is None:
            p.grad = torch.zeros_like(p)
        dist.all_reduce(p.grad)
        p.grad.div_(world)


answer = average_gradients
