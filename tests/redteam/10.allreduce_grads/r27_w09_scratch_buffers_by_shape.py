# expect: fail reuses one scratch buffer per (shape, dtype) for the async all-reduces: two gradients of the same shape share a buffer, so the second overwrites the first while it is in flight and both grads get the same (wrong) values; a model whose grads all differ in shape hides it
# hint: (shar|reus|same|one)\w*.{0,40}(buffer|scratch)|(shape|size).{0,40}(key|shar|same|buffer|collid)|overwr|clobber|in flight|same shape
# name: average_gradients
import torch
import torch.distributed as dist

_scratch = {}  # (shape, dtype) -> a buffer reused every step, no allocation per call


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    pending = []
    for p in model.parameters():
        if p.grad is None:
            continue
        key = (tuple(p.grad.shape), p.grad.dtype)
        if key not in _scratch:
            _scratch[key] = torch.empty_like(p.grad)
        buf = _scratch[key]
        buf.copy_(p.grad)
        pending.append((dist.all_reduce(buf, async_op=True), buf, p.grad))
    world = dist.get_world_size()
    for handle, buf, grad in pending:
        handle.wait()
        grad.copy_(buf).div_(world)
