# expect: pass Packs this call's existing gradients into one flat tensor per dtype with torch.cat, all-reduces each once, and copies the averages back with torch.split; nothing is kept between calls.
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    groups = {}  # dtype -> gradients, in parameter order (the same on every rank)
    for p in model.parameters():
        if p.grad is not None:
            groups.setdefault(p.grad.dtype, []).append(p.grad)
    for dtype in sorted(groups, key=str):
        grads = groups[dtype]
        flat = torch.cat([g.reshape(-1) for g in grads])
        dist.all_reduce(flat)
        flat.div_(world)
        for g, part in zip(grads, torch.split(flat, [g.numel() for g in grads])):
            g.copy_(part.view_as(g))
