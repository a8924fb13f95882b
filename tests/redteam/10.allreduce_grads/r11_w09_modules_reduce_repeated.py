# expect: fail walks model.modules() and each module's (recursive) parameters(), so every parameter of a nested module is all-reduced and divided once per enclosing module: extra collectives (the average comes out right only because re-averaging equal values is a no-op up to rounding)
# hint: modules\(\)|recurs|more than once|twice|repeat|duplicat|extra|several times|once per|number of (all.?reduce|collective)
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for module in model.modules():
        for p in module.parameters():
            if p.grad is None:
                continue
            dist.all_reduce(p.grad)
            p.grad /= world
