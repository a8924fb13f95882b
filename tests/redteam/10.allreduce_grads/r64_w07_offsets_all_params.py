# expect: fail packs only the gradients that exist but unpacks with offsets counted over every parameter, so after a parameter without gradient the slices are shifted
# hint: offset|shift|slice|unpack|copy(ing)? back|misalign|none|without (a )?grad|wrong (parameter|gradient|place)
# Wrong: the offsets of the copy back step over the numel of parameters whose grad is None, which
# were never packed; every gradient after one such parameter gets someone else's values (or a
# short slice). Right only when no parameter lacks a gradient, or the missing ones come last.
import torch
import torch.distributed as dist


@torch.no_grad()
def answer(model):
    params = list(model.parameters())
    grads = [p.grad.reshape(-1) for p in params if p.grad is not None]
    if not grads:
        return
    flat = torch.cat(grads)
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for p in params:
        n = p.numel()
        if p.grad is not None:
            part = flat[offset : offset + n]
            if part.numel() == n:
                p.grad.copy_(part.view_as(p.grad))
            else:  # ran off the end: keep what fits
                p.grad.view(-1)[: part.numel()].copy_(part)
        offset += n
