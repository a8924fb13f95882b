# expect: pass
# hint:
# name: OverlappedDDP
import functools
from collections import Counter

import torch
import torch.distributed as dist


class OverlappedDDP:
    """functools.partial hooks, a Counter of ready gradients, and torch.futures.wait_all in finish."""

    def __init__(self, model, bucket_bytes):
        self.groups = []
        group, total = [], 0
        for p in reversed([*model.parameters()]):
            group.append(p)
            total += p.nbytes
            if total >= bucket_bytes:
                self.groups.append(tuple(group))
                group, total = [], 0
        if group:
            self.groups.append(tuple(group))
        self.ready = Counter()
        self.outstanding = []  # (group index, flat, work)
        for k, g in enumerate(self.groups):
            for p in g:
                p.register_post_accumulate_grad_hook(functools.partial(self._on_grad, k))

    def _on_grad(self, k, p):
        self.ready[k] += 1
        if self.ready[k] != len(self.groups[k]):
            return
        with torch.no_grad():
            flat = torch.cat([q.grad.reshape(-1) for q in self.groups[k]])
            flat.div_(dist.get_world_size())
        work = dist.all_reduce(flat, async_op=True)
        self.outstanding.append((k, flat, work))

    def finish(self):
        torch.futures.wait_all([work.get_future() for _, _, work in self.outstanding])
        with torch.no_grad():
            for k, flat, _ in self.outstanding:
                pieces = flat.split([p.numel() for p in self.groups[k]])
                for p, piece in zip(self.groups[k], pieces):
                    p.grad.copy_(piece.reshape(p.shape))
        self.outstanding.clear()
        self.ready.clear()
