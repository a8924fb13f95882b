# expect: pass
# hint:
# Right: closes a bucket just before a parameter would take it past the cap (the prompt's
# allowed alternative rule), and binds the bucket index into each hook with functools.partial.
import functools

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        current, size = [], 0
        for p in reversed(list(model.parameters())):
            nbytes = p.numel() * p.element_size()
            if current and size + nbytes > bucket_bytes:  # p would take it past the cap
                self.buckets.append(current)
                current, size = [], 0
            current.append(p)
            size += nbytes
        if current:
            self.buckets.append(current)
        self.counts = [0] * len(self.buckets)
        self.work = []
        for i, bucket in enumerate(self.buckets):
            for p in bucket:
                p.register_post_accumulate_grad_hook(functools.partial(self._ready, i))

    def _ready(self, i, p):
        self.counts[i] += 1
        if self.counts[i] < len(self.buckets[i]):
            return
        flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
        flat /= dist.get_world_size()
        self.work.append((dist.all_reduce(flat, async_op=True), flat, i))

    def _hook(self, p):
        for i, bucket in enumerate(self.buckets):
            if any(q is p for q in bucket):
                return self._ready(i, p)

    def finish(self):
        for handle, flat, i in self.work:
            handle.wait()
            sizes = [q.numel() for q in self.buckets[i]]
            for q, part in zip(self.buckets[i], flat.split(sizes), strict=True):
                q.grad.copy_(part.view_as(q.grad))
        self.work = []
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
