# expect: fail gives every parameter without a gradient a zero gradient (p.grad = torch.zeros_like(p)) "so the ranks stay in step": unused parameters get a gradient they should not have, which the prompt says to leave alone (momentum or weight decay would then move them).
# hint: None|leave|unused|zeros|no gradient
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            p.grad = torch.zeros_like(p)
        dist.all_reduce(p.grad)
        p.grad.div_(world)
