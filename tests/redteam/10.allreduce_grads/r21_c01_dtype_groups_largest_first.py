# expect: pass one flat tensor per (device, dtype) group, groups in first-seen order, gradients largest first inside each (the same order on every rank), split back with torch.split
# hint: 
import torch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    groups = {}
    for p in model.parameters():
        if p.grad is not None:
            groups.setdefault((p.grad.device, p.grad.dtype), []).append(p.grad)
    world = dist.get_world_size()
    for grads in groups.values():
        grads = sorted(grads, key=lambda g: -g.numel())  # stable: ties keep the model's order
        flat = torch.cat([g.reshape(-1) for g in grads])
        dist.all_reduce(flat)
        flat.div_(world)
        for g, part in zip(grads, torch.split(flat, [g.numel() for g in grads])):
            g.copy_(part.view_as(g))
