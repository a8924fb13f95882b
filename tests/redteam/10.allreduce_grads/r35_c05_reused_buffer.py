# expect: pass a callable object keeps one flat buffer per dtype and reuses it while the gradients' total size is unchanged, reallocating (not growing a list) when the set of gradients changes.
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


class _Averager:
    """Average gradients through a flat buffer kept for the next call (one per dtype, replaced, never accumulated)."""

    def __init__(self):
        self._buffers = {}

    def _buffer(self, dtype, numel):
        buf = self._buffers.get(dtype)
        if buf is None or buf.numel() != numel:
            buf = torch.empty(numel, dtype=dtype)
            self._buffers[dtype] = buf  # replaces the old one: memory does not grow
        return buf

    def __call__(self, model):
        groups = {}
        for p in model.parameters():  # look at p.grad afresh on every call
            if p.grad is not None:
                groups.setdefault(p.grad.dtype, []).append(p.grad)
        world = dist.get_world_size()
        for dtype in sorted(groups, key=str):
            grads = groups[dtype]
            sizes = [g.numel() for g in grads]
            flat = self._buffer(dtype, sum(sizes))
            for g, part in zip(grads, flat.split(sizes)):
                part.copy_(g.reshape(-1))
            dist.all_reduce(flat)
            flat.div_(world)
            for g, part in zip(grads, flat.split(sizes)):
                g.copy_(part.view_as(g))


_average = _Averager()


def average_gradients(model):
    _average(model)


answer = average_gradients
