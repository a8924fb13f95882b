# expect: fail keeps every call's flat buffer in a module-level history list "to inspect later", never trimmed: a full copy of the gradients stays alive per training step, memory grows without bound (the averages themselves are right)
# hint: (histor|keep|kept|retain|hold|held|append)\w*.{0,60}(buffer|flat|cop(y|ies)|memory|every (call|step))|memory.{0,30}(grow|leak)|leak|never (freed|cleared|trimmed)
# name: average_gradients
import torch
import torch.distributed as dist

HISTORY = []  # the averaged gradients of each step, for debugging


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat.div_(dist.get_world_size())
    offset = 0
    for g in grads:
        g.copy_(flat[offset : offset + g.numel()].view_as(g))
        offset += g.numel()
    HISTORY.append(flat)
