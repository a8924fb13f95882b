# expect: pass divides each share first, then sums them with a blocking all_reduce
# hint: 
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    n = dist.get_world_size()
    for g in (p.grad for p in model.parameters()):
        if g is not None:
            g.div_(n)
            dist.all_reduce(g)
