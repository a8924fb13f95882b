# expect: pass a generator helper yields the present gradients; each is summed in place with dist.all_reduce and scaled in place with p.grad.div_(float(world)).
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


def _present_grads(model):
    for p in model.parameters():
        g = p.grad
        if g is not None:
            yield g


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = float(dist.get_world_size())
    for g in _present_grads(model):
        dist.all_reduce(g)
        g.div_(world)
