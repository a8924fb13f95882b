# expect: pass A callable object keeps one flat buffer and reuses it while the gradients' total size and dtype match, replacing it (never adding a second) when they change.
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


class _GradientAverager:
    def __init__(self):
        self._buffer = None  # at most one buffer, reused from call to call

    def _flat(self, numel, dtype):
        if self._buffer is None or self._buffer.numel() != numel or self._buffer.dtype != dtype:
            self._buffer = torch.empty(numel, dtype=dtype)
        return self._buffer

    @torch.no_grad()
    def __call__(self, model):
        grads = [p.grad for p in model.parameters() if p.grad is not None]
        world = dist.get_world_size()
        if not grads:
            return
        if len({g.dtype for g in grads}) > 1:  # mixed dtypes: one all-reduce each
            for g in grads:
                dist.all_reduce(g)
                g.div_(world)
            return
        flat = self._flat(sum(g.numel() for g in grads), grads[0].dtype)
        offset = 0
        for g in grads:
            flat[offset : offset + g.numel()].copy_(g.reshape(-1))
            offset += g.numel()
        dist.all_reduce(flat)
        flat.div_(world)
        offset = 0
        for g in grads:
            g.copy_(flat[offset : offset + g.numel()].view_as(g))
            offset += g.numel()


_averager = _GradientAverager()


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    _averager(model)
