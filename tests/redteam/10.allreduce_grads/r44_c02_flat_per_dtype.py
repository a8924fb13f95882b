# expect: pass one flat buffer per gradient dtype (torch.cat of the reshape(-1)s, so each keeps its own dtype), one all-reduce each, then copied back in place into every p.grad with copy_.
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    groups = {}  # dtype -> gradients of that dtype, in the order of model.parameters()
    for p in model.parameters():
        if p.grad is not None:
            groups.setdefault((p.grad.dtype, p.grad.device), []).append(p.grad)
    for grads in groups.values():
        flat = torch.cat([g.reshape(-1) for g in grads])  # the gradients' own dtype
        dist.all_reduce(flat)
        flat.div_(world)
        for g, part in zip(grads, flat.split([g.numel() for g in grads])):
            g.copy_(part.view_as(g))
