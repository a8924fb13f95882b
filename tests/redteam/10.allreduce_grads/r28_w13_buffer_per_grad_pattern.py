# expect: fail keeps one flat buffer per pattern of which parameters have a gradient and never frees the old ones: each new pattern (the third step's, or every step of a model that drops layers at random) adds a buffer, so memory grows with the run.
# hint: (grow|grows|growing|pattern|per (set|pattern|key)|dict|cache|never (freed|released|dropped)|one buffer|unbounded|each call|every call)
# open: a buffer per pattern of gradients grows with the patterns, not with the calls: the run has three (4 gradients, 6, the second model's 5), where one buffer per model, kept while the model lives, holds as much
# name: average_gradients
import torch
import torch.distributed as dist

_buffers = {}  # (names with a gradient, dtype) -> flat buffer of that layout


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    named = [(n, p) for n, p in model.named_parameters() if p.grad is not None]
    groups = {}
    for n, p in named:  # by dtype, in the order of named_parameters on every rank
        groups.setdefault(p.grad.dtype, []).append((n, p))
    world = dist.get_world_size()
    for dtype, group in groups.items():
        key = (tuple(n for n, _ in group), dtype)
        if key not in _buffers:
            _buffers[key] = torch.empty(sum(p.numel() for _, p in group), dtype=dtype)
        flat = _buffers[key]
        torch.cat([p.grad.reshape(-1) for _, p in group], out=flat)
        dist.all_reduce(flat)
        flat.div_(world)
        for (_, p), part in zip(group, flat.split([p.numel() for _, p in group])):
            p.grad.copy_(part.view_as(p.grad))
