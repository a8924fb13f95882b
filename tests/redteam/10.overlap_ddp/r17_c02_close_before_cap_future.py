# expect: pass
# hint:
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Buckets that never exceed the cap; divide after the wait; wait on the handle's future."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = []
        bucket, nbytes = [], 0
        for p in params[::-1]:
            size = p.numel() * p.element_size()
            if bucket and nbytes + size > bucket_bytes:  # p would take it past the cap: close first
                self.buckets.append(bucket)
                bucket, nbytes = [], 0
            bucket.append(p)
            nbytes += size
        if bucket:
            self.buckets.append(bucket)
        self.where = {}
        for b, bucket in enumerate(self.buckets):
            for p in bucket:
                self.where[id(p)] = b
        self.counts = {b: 0 for b in range(len(self.buckets))}
        self.works = {}  # bucket index -> (flat, work)
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        b = self.where[id(p)]
        self.counts[b] += 1
        if self.counts[b] < len(self.buckets[b]):
            return
        flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[b]])
        self.works[b] = (flat, dist.all_reduce(flat, async_op=True))  # not waited here

    def finish(self):
        world = dist.get_world_size()
        for b, (flat, work) in self.works.items():
            work.get_future().wait()
            flat.div_(world)
            grads = [q.grad for q in self.buckets[b]]
            for g, part in zip(grads, flat.split([g.numel() for g in grads])):
                g.copy_(part.view_as(g))
        self.works = {}
        self.counts = {b: 0 for b in self.counts}


answer = OverlappedDDP
