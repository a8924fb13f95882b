# expect: fail takes the number of ranks from the WORLD_SIZE environment variable (default 2), not dist.get_world_size()
# hint: world.?size|get_world_size|number of (ranks|processes)|environ|WORLD_SIZE|three ranks|3 ranks|/ ?2\b|divid
# Wrong: torchrun sets WORLD_SIZE, but ranks started another way (the checker's gloo ranks) need
# not: the fallback of 2 averages over the wrong count on three ranks.
import os

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.world = int(os.environ.get("WORLD_SIZE", "2"))
        self.buckets = []
        current, size = [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in self.bucket_of:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[p]
        self.ready[i] += 1
        bucket = self.buckets[i]
        if self.ready[i] == len(bucket):
            flat = torch.cat([q.grad.reshape(-1) for q in bucket])
            flat.div_(self.world)
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, bucket))

    def finish(self):
        for handle, flat, bucket in self.pending:
            handle.wait()
            offset = 0
            for q in bucket:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q.grad))
                offset += q.numel()
        self.pending = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
