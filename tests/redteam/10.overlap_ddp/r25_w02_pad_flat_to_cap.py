# expect: fail pads every bucket's flat tensor with zeros up to the cap (like DDP's preallocated bucket buffers), so the smaller last bucket is sent at bucket_bytes, not at the size of its gradients: extra bytes, and buckets that do not hold what the rule gives
# hint: pad|zeros?|(last|smaller) bucket|(size|bytes) of (the|a|each) bucket|extra bytes|more bytes|bucket_bytes|cap
# name: OverlappedDDP
import math

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.bucket_bytes = bucket_bytes
        self.buckets, current, size = [], [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] < len(self.buckets[i]):
            return
        bucket = self.buckets[i]
        used = sum(q.numel() for q in bucket)
        # a fixed-size buffer per bucket, as DDP allocates bucket_cap bytes: same message every step
        capacity = max(used, math.ceil(self.bucket_bytes / p.element_size()))
        flat = p.grad.new_zeros(capacity)
        flat[:used] = torch.cat([q.grad.reshape(-1) for q in bucket])
        flat.div_(dist.get_world_size())
        self.pending.append((dist.all_reduce(flat, async_op=True), flat, i))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, i in self.pending:
            handle.wait()
            offset = 0
            for q in self.buckets[i]:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q))
                offset += q.numel()
        self.pending = []
        self.counts = [0] * len(self.buckets)
