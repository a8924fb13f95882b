# expect: fail keeps one flat buffer sized by the first call's gradients, so when a later step has more parameters with gradients (the unused layer now used) they do not fit and the call fails.
# hint: buffer|size|fit|later|every call|layer|none|third|shape
# name: average_gradients
import torch
import torch.distributed as dist


class _FlatBuffer:
    def __init__(self):
        self.buf = None

    def __call__(self, model):
        grads = [p.grad for p in model.parameters() if p.grad is not None]
        if self.buf is None:  # allocate once, reuse it at every step
            self.buf = torch.empty(sum(g.numel() for g in grads), dtype=grads[0].dtype)
        offset = 0
        for g in grads:
            self.buf[offset : offset + g.numel()].copy_(g.reshape(-1))
            offset += g.numel()
        dist.all_reduce(self.buf)
        self.buf /= dist.get_world_size()
        offset = 0
        for g in grads:
            g.copy_(self.buf[offset : offset + g.numel()].view_as(g))
            offset += g.numel()


_averager = _FlatBuffer()


def average_gradients(model):
    _averager(model)


answer = average_gradients
