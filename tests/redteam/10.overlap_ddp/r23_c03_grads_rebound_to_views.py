# expect: pass after the wait each p.grad is rebound to a view of its bucket's averaged flat tensor (no copy back, as gradient_as_bucket_view), bytes from torch.finfo(dtype).bits // 8, ready-sets emptied in finish
# hint: 
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        bucket, size = [], 0
        for p in reversed([*model.parameters()]):
            bucket.append(p)
            size += p.numel() * (torch.finfo(p.dtype).bits // 8)
            if size >= bucket_bytes:
                self.buckets.append(bucket)
                bucket, size = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.where = {id(p): b for b, bucket in enumerate(self.buckets) for p in bucket}
        self.seen = [set() for _ in self.buckets]
        self.work = []
        for bucket in self.buckets:
            for p in bucket:
                p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.where[id(p)]
        self.seen[b].add(id(p))
        if len(self.seen[b]) == len(self.buckets[b]):
            flat = torch.cat([q.grad.flatten() for q in self.buckets[b]]) / dist.get_world_size()
            self.work.append((b, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for b, flat, handle in self.work:
            handle.wait()
            views = flat.split([q.numel() for q in self.buckets[b]])
            for q, v in zip(self.buckets[b], views):
                q.grad = v.view(q.shape)  # p.grad now lives in the bucket's flat tensor
        self.work.clear()
        for s in self.seen:
            s.clear()


answer = OverlappedDDP
