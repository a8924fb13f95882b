# expect: fail walks model.children(), so parameters registered on the model itself are never averaged
# hint: children|model\.parameters|parameters\(\)|every param|missed|skipped|top.?level|own param
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for layer in model.children():
        for p in layer.parameters():
            if p.grad is None:
                continue
            dist.all_reduce(p.grad)
            p.grad /= world
