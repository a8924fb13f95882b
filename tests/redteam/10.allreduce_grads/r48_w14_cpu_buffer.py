# expect: fail builds the flat buffer with torch.empty(total, dtype=...) and no device: for CUDA gradients it is a CPU tensor, which nccl cannot all-reduce (and gloo only after copies to and from the host)
# hint: device|cpu|cuda|host|nccl
# open: gloo on the CPU reduces a CPU buffer; a flat buffer off the gradients' device shows only with CUDA tensors under nccl, which no machine of the tests has
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Flatten the gradients of each dtype, one all-reduce each, copy the averages back."""
    by_dtype = {}
    for p in model.parameters():
        if p.grad is not None:
            by_dtype.setdefault(p.grad.dtype, []).append(p.grad)
    world = dist.get_world_size()
    for dtype, grads in by_dtype.items():
        flat = torch.empty(sum(g.numel() for g in grads), dtype=dtype)
        offset = 0
        for g in grads:
            flat[offset : offset + g.numel()].copy_(g.reshape(-1))
            offset += g.numel()
        dist.all_reduce(flat)
        flat /= world
        offset = 0
        for g in grads:
            g.copy_(flat[offset : offset + g.numel()].view_as(g))
            offset += g.numel()


answer = average_gradients
