# expect: fail keeps one flat buffer and leaves each p.grad a view into it; when the set of gradients changes, the packing offsets shift and overwrite gradients not yet packed
# hint: buffer|view|alias|overwr|offset|corrupt|shift|clobber
# Wrong: like gradient_as_bucket_view, but the offsets follow only the gradients present. After
# zero_grad(set_to_none=False) the grads ARE the buffer, so when a newly used layer shifts the
# offsets, copying one gradient in clobbers another that is still to be read.
import torch
import torch.distributed as dist

_buf = {}  # id(model) -> one flat buffer the size of all its parameters (kept, never grows)


@torch.no_grad()
def answer(model):
    params = list(model.parameters())
    key = id(model)
    if key not in _buf:
        _buf[key] = torch.zeros(
            sum(p.numel() for p in params), dtype=params[0].dtype, device=params[0].device
        )
    buf = _buf[key]
    used, offset = [], 0
    for p in params:
        if p.grad is None:
            continue
        n = p.numel()
        buf[offset : offset + n].copy_(p.grad.reshape(-1))
        used.append((p, offset, n))
        offset += n
    flat = buf[:offset]
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    for p, o, n in used:  # no copy back: the gradient becomes a view of the buffer
        p.grad = buf[o : o + n].view_as(p)
