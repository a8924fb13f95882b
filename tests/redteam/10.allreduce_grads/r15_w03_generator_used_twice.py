# expect: fail flattens from a generator, which is exhausted before the copy back: p.grad stays the local gradient
# hint: not averaged|unchanged|local|copy|back|written|own gradient|same as before|generator|exhaust
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    with_grad = (p for p in model.parameters() if p.grad is not None)
    flat = torch.cat([p.grad.reshape(-1) for p in with_grad])  # one all-reduce, as a bucket
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for p in with_grad:
        n = p.grad.numel()
        p.grad.copy_(flat[offset:offset + n].view_as(p.grad))
        offset += n


answer = average_gradients
