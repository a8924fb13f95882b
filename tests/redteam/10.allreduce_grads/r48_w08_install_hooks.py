# expect: fail on the first call registers a post-accumulate-grad hook on each parameter that all-reduces inside every later backward: the averaging moves into backward for good, and any backward (one rank's alone, gradient accumulation steps) now runs collectives
# hint: hook|backward|side.effect|register
import torch
import torch.distributed as dist

_hooked = set()  # ids of parameters whose gradients already get averaged in backward


def _average_in_backward(p):
    with torch.no_grad():
        dist.all_reduce(p.grad)
        p.grad /= dist.get_world_size()


@torch.no_grad()
def average_gradients(model):
    """Average now whatever is not yet averaged; from the next step on, backward averages as it goes."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None or id(p) in _hooked:
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
        p.register_post_accumulate_grad_hook(_average_in_backward)  # overlap, like DDP
        _hooked.add(id(p))


answer = average_gradients
