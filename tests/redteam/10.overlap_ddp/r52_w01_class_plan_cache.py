# expect: fail caches the bucket plan at class level per model, so a later instance (e.g. after .double()) reuses a stale plan
# hint: instance|class|carr(y|ies) over|own buckets|plan|stale|cache|bytes
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    _plans = {}  # id(model) -> buckets: plan each model once

    def __init__(self, model, bucket_bytes):
        key = (id(model), bucket_bytes)
        if key not in OverlappedDDP._plans:
            buckets, cur, size = [], [], 0
            for p in reversed(list(model.parameters())):
                cur.append(p)
                size += p.numel() * p.element_size()
                if size >= bucket_bytes:
                    buckets.append(cur)
                    cur, size = [], 0
            if cur:
                buckets.append(cur)
            OverlappedDDP._plans[key] = buckets
        self.buckets = OverlappedDDP._plans[key]
        self.where = {}
        for i, b in enumerate(self.buckets):
            for p in b:
                self.where[p] = i
        self.counts = [0] * len(self.buckets)
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.where[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.pending:
            handle.wait()
            offset = 0
            for q in self.buckets[i]:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q))
                offset += q.numel()
        self.counts = [0] * len(self.buckets)
        self.pending = []


answer = OverlappedDDP
