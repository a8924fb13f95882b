# expect: pass
# hint:
# Right: broadcasts the parameters from rank 0 in __init__ as DDP's constructor does (allowed),
# counts ready gradients with a set per bucket, and keeps the handles in a dict by bucket.
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        with torch.no_grad():
            for p in params:
                dist.broadcast(p.data, src=0)
        order = list(reversed(params))
        self.buckets = []
        start = 0
        while start < len(order):
            end, size = start, 0
            while end < len(order) and size < bucket_bytes:
                size += order[end].numel() * order[end].element_size()
                end += 1
            self.buckets.append(order[start:end])
            start = end
        self.bucket_index = {}
        for i, bucket in enumerate(self.buckets):
            for p in bucket:
                self.bucket_index[p] = i
                p.register_post_accumulate_grad_hook(self._hook)
        self.seen = [set() for _ in self.buckets]
        self.sent = {}

    def _hook(self, p):
        i = self.bucket_index[p]
        self.seen[i].add(id(p))
        if len(self.seen[i]) == len(self.buckets[i]):
            world = dist.get_world_size()
            flat = torch.cat([q.grad.reshape(-1) / world for q in self.buckets[i]])
            self.sent[i] = (dist.all_reduce(flat, async_op=True), flat)

    def finish(self):
        for i in sorted(self.sent):
            handle, flat = self.sent[i]
            handle.wait()
            offset = 0
            for q in self.buckets[i]:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q.grad))
                offset += q.numel()
        self.sent.clear()
        for s in self.seen:
            s.clear()


answer = OverlappedDDP
