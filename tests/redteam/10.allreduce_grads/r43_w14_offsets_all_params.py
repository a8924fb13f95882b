# expect: fail It flattens only the gradients that exist but splits the averaged buffer by the sizes of all parameters, so once a layer has no gradient the pieces shift and land in the wrong p.grad (or the split fails).
# hint: none|offset|split|size|unused|layer
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    params = list(model.parameters())
    flat = torch.cat([p.grad.reshape(-1) for p in params if p.grad is not None])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for p in params:
        n = p.numel()
        if p.grad is not None and offset + n <= flat.numel():
            p.grad.copy_(flat[offset : offset + n].view_as(p.grad))
        offset += n
