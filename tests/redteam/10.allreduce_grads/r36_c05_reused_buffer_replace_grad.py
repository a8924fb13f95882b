# expect: pass a reusable flat buffer kept on the function (resized, never grown per call); grads replaced by new tensors
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    params = [p for p in model.parameters() if p.grad is not None]
    total = sum(p.grad.numel() for p in params)
    if total == 0:
        return
    dtype = params[0].grad.dtype
    if any(p.grad.dtype != dtype for p in params):  # mixed dtypes: one by one
        for p in params:
            dist.all_reduce(p.grad)
            p.grad.div_(dist.get_world_size())
        return
    buf = getattr(average_gradients, "_buffer", None)
    if buf is None or buf.numel() != total or buf.dtype != dtype or buf.device != params[0].grad.device:
        buf = torch.empty(total, dtype=dtype, device=params[0].grad.device)
        average_gradients._buffer = buf  # one buffer, replaced when the size changes
    torch.cat([p.grad.reshape(-1) for p in params], out=buf)
    dist.all_reduce(buf)
    buf.div_(dist.get_world_size())
    start = 0
    for p in params:
        n = p.grad.numel()
        p.grad = buf[start:start + n].view_as(p.grad).clone()
        start += n
