# expect: pass
# hint:
# name: OverlappedDDP
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class OverlappedDDP:
    """No bucket exceeds the cap (closed before a parameter that would pass it); waits on futures."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        bucket, nbytes = [], 0
        for p in reversed(list(model.parameters())):
            size = p.numel() * p.element_size()
            if bucket and nbytes + size > bucket_bytes:
                self.buckets.append(bucket)
                bucket, nbytes = [], 0
            bucket.append(p)
            nbytes += size
        if bucket:
            self.buckets.append(bucket)
        self.where = {}
        for b, params in enumerate(self.buckets):
            for p in params:
                self.where[p] = b
        self.ready = [0] * len(self.buckets)
        self.sent = {}  # bucket index -> (handle, flat)
        for p in self.where:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        b = self.where[p]
        self.ready[b] += 1
        if self.ready[b] < len(self.buckets[b]):
            return
        with torch.no_grad():
            flat = _flatten_dense_tensors([q.grad for q in self.buckets[b]])
            flat /= dist.get_world_size()
        self.sent[b] = (dist.all_reduce(flat, async_op=True), flat)

    def finish(self):
        with torch.no_grad():
            for b, (handle, flat) in self.sent.items():
                handle.get_future().wait()
                grads = [p.grad for p in self.buckets[b]]
                for g, avg in zip(grads, _unflatten_dense_tensors(flat, grads)):
                    g.copy_(avg)
        self.sent = {}
        self.ready = [0] * len(self.buckets)
