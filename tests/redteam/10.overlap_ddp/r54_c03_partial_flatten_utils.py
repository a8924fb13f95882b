# expect: pass functools.partial hooks bound to a bucket index, torch._utils flatten/unflatten helpers, counts reset in the hook after each launch, closing rule written as a check at the top of the loop
# hint:
import functools

import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        params.reverse()
        buckets, size = [[]], 0
        for p in params:
            if size >= bucket_bytes:  # the previous bucket reached the cap
                buckets.append([])
                size = 0
            buckets[-1].append(p)
            size += p.numel() * p.element_size()
        self.buckets = [b for b in buckets if b]
        self.ready = [0] * len(self.buckets)
        self.inflight = []
        for i, bucket in enumerate(self.buckets):
            for p in bucket:
                p.register_post_accumulate_grad_hook(functools.partial(self._bucket_hook, i))

    def _bucket_hook(self, i, p):
        self._hook(p, i)

    def _hook(self, p, i=None):
        """Autograd calls this once p.grad holds this step's gradient."""
        if i is None:
            i = next(k for k, b in enumerate(self.buckets) if any(q is p for q in b))
        self.ready[i] += 1
        if self.ready[i] < len(self.buckets[i]):
            return
        self.ready[i] = 0  # this bucket is ready for the next step already
        flat = _flatten_dense_tensors([q.grad for q in self.buckets[i]])
        flat /= dist.get_world_size()
        self.inflight.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        inflight, self.inflight = self.inflight, []
        for i, flat, work in inflight:
            work.wait()
            grads = [q.grad for q in self.buckets[i]]
            for g, avg in zip(grads, _unflatten_dense_tensors(flat, grads)):
                g.copy_(avg)
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
