# expect: fail walks model.modules() with recursive parameters(), so nested gradients are all-reduced more than once
# hint: modules|recurse|twice|more than once|repeated|duplicate|once per|extra collective|each gradient once|bytes for [0-9]+ bytes
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for module in model.modules():
        for p in module.parameters():
            if p.grad is None:
                continue
            dist.all_reduce(p.grad)
            p.grad /= world
