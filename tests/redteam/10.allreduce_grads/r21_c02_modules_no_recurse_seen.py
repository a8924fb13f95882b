# expect: pass walks model.modules() with parameters(recurse=False), each parameter once (a set of ids seen), blocking all_reduce then mul_ by 1/world
# hint: 
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    scale = 1.0 / dist.get_world_size()
    seen = set()
    for module in model.modules():
        for p in module.parameters(recurse=False):
            if id(p) in seen or p.grad is None:
                continue
            seen.add(id(p))
            dist.all_reduce(p.grad)
            p.grad.mul_(scale)
