# expect: pass hooks bound with functools.partial, a dict of per-bucket state, division in finish() after waiting on handle.get_future()
# hint:
import functools

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = []
        bucket, filled = [], 0
        for p in params[::-1]:
            bucket.append(p)
            filled += p.nbytes
            if filled >= bucket_bytes:
                self.buckets.append(bucket)
                bucket, filled = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.bucket_of = {}
        for index, b in enumerate(self.buckets):
            for p in b:
                self.bucket_of[p] = index
        self.ready = dict.fromkeys(range(len(self.buckets)), 0)
        self.inflight = {}  # bucket index -> (flat, handle)
        self._handles = [
            p.register_post_accumulate_grad_hook(functools.partial(OverlappedDDP._hook, self))
            for p in params
        ]

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        index = self.bucket_of[p]
        self.ready[index] += 1
        if self.ready[index] < len(self.buckets[index]):
            return
        flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[index]])
        self.inflight[index] = (flat, dist.all_reduce(flat, async_op=True))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        world = dist.get_world_size()
        for index, (flat, handle) in self.inflight.items():
            (reduced,) = handle.get_future().wait()
            reduced.div_(world)
            offset = 0
            for q in self.buckets[index]:
                n = q.numel()
                q.grad.copy_(reduced[offset : offset + n].view_as(q.grad))
                offset += n
        self.inflight = {}
        self.ready = dict.fromkeys(range(len(self.buckets)), 0)


answer = OverlappedDDP
