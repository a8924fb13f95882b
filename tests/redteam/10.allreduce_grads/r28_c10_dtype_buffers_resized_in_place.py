# expect: pass
# hint:
# name: average_gradients
import torch
import torch.distributed as dist

_scratch = {}  # (dtype, device) -> one flat buffer, resized in place: never more than the largest step


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    groups = {}  # first-seen order of model.parameters(): the same on every rank
    for p in model.parameters():
        g = p.grad
        if g is not None:
            groups.setdefault((g.dtype, g.device), []).append(g)
    world = dist.get_world_size()
    for key, grads in groups.items():
        buf = _scratch.get(key)
        if buf is None:
            buf = _scratch[key] = torch.empty(0, dtype=key[0], device=key[1])
        sizes = [g.numel() for g in grads]
        buf.resize_(sum(sizes))  # reuses the storage when it is already big enough
        torch.cat([g.reshape(-1) for g in grads], out=buf)
        dist.all_reduce(buf)
        buf.div_(world)
        for g, part in zip(grads, buf.split(sizes)):
            g.copy_(part.view_as(g))
