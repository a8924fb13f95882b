# expect: pass groups grads of the same shape and dtype, all-reduces each group as one torch.stack-ed tensor, copies back through unbind
# hint: 
import torch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    groups = {}
    for p in model.parameters():
        if p.grad is not None:
            groups.setdefault((tuple(p.grad.shape), p.grad.dtype), []).append(p.grad)
    world = dist.get_world_size()
    for grads in groups.values():  # dicts keep insertion order: the model's, on every rank
        stacked = torch.stack(grads)  # one tensor per shape: fewer calls than one per grad
        dist.all_reduce(stacked)
        stacked.div_(world)
        for g, avg in zip(grads, stacked.unbind(0)):
            g.copy_(avg)
