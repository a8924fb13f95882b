# expect: pass walks named_parameters() sorted by name (the same order on every rank, though not the model's) and scales by the reciprocal of the world size with mul_
# hint: 
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    scale = 1.0 / dist.get_world_size()
    named = dict(model.named_parameters())  # tied weights appear once
    for name in sorted(named):  # any order works, as long as all ranks share it
        g = named[name].grad
        if g is None:
            continue
        dist.all_reduce(g)
        g.mul_(scale)
