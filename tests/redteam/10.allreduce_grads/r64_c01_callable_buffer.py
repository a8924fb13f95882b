# expect: pass
# hint:
# Right: a callable instance that packs the gradients of each dtype into one flat buffer it keeps
# (one per dtype and device, replaced only when too small: bounded), divides first as DDP does,
# one all-reduce per dtype in a fixed order, and copies back with copy_ (any strides).
import torch
import torch.distributed as dist


class _Averager:
    def __init__(self):
        self._buffers = {}  # (dtype, device) -> flat buffer, at most the size of the model

    @torch.no_grad()
    def __call__(self, model):
        groups = {}  # insertion order follows model.parameters(): the same on every rank
        for p in model.parameters():
            if p.grad is not None:
                groups.setdefault((p.grad.dtype, p.grad.device), []).append(p.grad)
        world = dist.get_world_size()
        for key, grads in groups.items():
            total = sum(g.numel() for g in grads)
            buf = self._buffers.get(key)
            if buf is None or buf.numel() < total:
                buf = self._buffers[key] = torch.empty(total, dtype=key[0], device=key[1])
            flat = buf[:total]
            torch.cat([g.reshape(-1) for g in grads], out=flat)
            flat.div_(world)  # the sum over the ranks of grad / n is the average
            dist.all_reduce(flat)
            for g, part in zip(grads, flat.split([g.numel() for g in grads]), strict=True):
                g.copy_(part.view_as(g))


answer = _Averager()
