# expect: fail gradient_as_bucket_view by hand: the first call makes every p.grad a view into one flat buffer kept per model, and later calls all-reduce that buffer without copying, assuming p.grad still lives there; after zero_grad(set_to_none=True) the grads are fresh tensors, so they stay local and the stale buffer is sent
# hint: view|stale|set_to_none|fresh|new (grad|tensor)|no longer|kept|cache|(third|later|next) (step|call)|zero_grad
# name: average_gradients
import torch
import torch.distributed as dist

_buckets = {}  # id(model) -> the flat buffer its grads are views of (chapter 10.1's gradient_as_bucket_view)


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    flat = _buckets.get(id(model))
    if flat is None:  # first call: move the grads into one bucket, once
        params = [p for p in model.parameters() if p.grad is not None]
        flat = torch.cat([p.grad.reshape(-1) for p in params])
        offset = 0
        for p in params:
            p.grad = flat[offset : offset + p.numel()].view_as(p)
            offset += p.numel()
        _buckets[id(model)] = flat
    # the grads are views of flat: no copy in, no copy out
    dist.all_reduce(flat)
    flat.div_(dist.get_world_size())
