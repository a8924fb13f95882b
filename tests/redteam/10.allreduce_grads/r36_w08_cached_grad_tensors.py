# expect: fail caches the p.grad tensors themselves on the first call; reduces stale tensors once grads are replaced
# hint: (cach|stale|same tensor|new tensor|replac|every call|each call|first (call|step)|set_to_none|not averag)
# name: average_gradients
import torch.distributed as dist


class _Cache:
    grads = None
    model = None


def average_gradients(model):
    if _Cache.model is not model or _Cache.grads is None:
        _Cache.model = model
        _Cache.grads = [p.grad for p in model.parameters() if p.grad is not None]
    world = dist.get_world_size()
    for g in _Cache.grads:  # the grad tensors live across steps
        dist.all_reduce(g)
        g.div_(world)
