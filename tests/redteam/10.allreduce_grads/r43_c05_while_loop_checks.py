# expect: pass Index-based while loop over a parameter list with an explicit initialized-check and a true-division assignment into the same tensor.
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    if not dist.is_initialized():
        raise RuntimeError("average_gradients needs an initialized process group")
    params = list(model.parameters())
    n = dist.get_world_size()
    i = 0
    while i < len(params):
        g = params[i].grad
        if g is not None:
            dist.all_reduce(g)
            torch.div(g, n, out=g)
        i += 1
