# expect: fail flattens with torch.cat (a copy, not views), all-reduces and divides the flat tensor, then "unpacks" by rebinding the loop variable (g = part.view_as(g)): p.grad is never written, so every rank keeps its own local gradient.
# hint: copy|view|cat|copy_|in place|back
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    flat = torch.cat([g.view(-1) for g in grads])  # views of the gradients, flattened
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    for g, part in zip(grads, flat.split([g.numel() for g in grads])):
        g = part.view_as(g)  # noqa: F841  (rebinding: p.grad is not changed)
