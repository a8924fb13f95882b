# expect: fail kept buffer with p.grad as views into it; zeroing the buffer next call wipes grads that zero_grad(set_to_none=False) left as those views
# hint: zero|in place|set_to_none|view|buffer|lost|average|differ|match
# open: the rank job clears the gradients in place once (the third step), where a layer new to that step changes the buffer's size and a new buffer is made: two in-place clearings in a row with the same layers, where zeroing the kept buffer wipes the views' gradients, are no step of it
import torch
import torch.distributed as dist

_bucket = {"flat": None}


def answer(model):
    params = [p for p in model.parameters() if p.grad is not None]
    if not params:
        return
    total = sum(p.numel() for p in params)
    flat = _bucket["flat"]
    if flat is None or flat.numel() != total:
        flat = _bucket["flat"] = torch.empty(total, dtype=params[0].grad.dtype)
    flat.zero_()  # a clean bucket each step
    offset = 0
    for p in params:
        flat[offset : offset + p.numel()].add_(p.grad.reshape(-1))
        offset += p.numel()
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for p in params:  # like gradient_as_bucket_view=True: no copy back
        p.grad = flat[offset : offset + p.numel()].view_as(p)
        offset += p.numel()
