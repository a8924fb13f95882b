# expect: pass Buckets as small dataclass objects holding precomputed offsets and a countdown of missing gradients, a lambda hook routed through _hook, and torch.futures.wait_all over the handles' futures.
# hint: 
# name: OverlappedDDP
from dataclasses import dataclass, field

import torch
import torch.distributed as dist


@dataclass
class _Bucket:
    params: list
    offsets: list = field(default_factory=list)
    missing: int = 0
    handle: object = None
    flat: object = None

    def reset(self):
        self.missing = len(self.params)
        self.handle = None
        self.flat = None


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = []
        self.bucket_of = {}
        group, held = [], 0
        for idx in range(len(params) - 1, -1, -1):
            p = params[idx]
            group.append(p)
            held += p.element_size() * p.numel()
            if held >= bucket_bytes:
                self.buckets.append(_Bucket(group))
                group, held = [], 0
        if group:
            self.buckets.append(_Bucket(group))
        for bucket in self.buckets:
            start = 0
            for p in bucket.params:
                bucket.offsets.append((start, start + p.numel()))
                start += p.numel()
                self.bucket_of[id(p)] = bucket
            bucket.reset()
        self.in_flight = []
        for p in params:
            p.register_post_accumulate_grad_hook(lambda param: self._hook(param))

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        bucket = self.bucket_of[id(p)]
        bucket.missing -= 1
        if bucket.missing == 0:
            flat = torch.cat([q.grad.reshape(-1) for q in bucket.params]).div_(dist.get_world_size())
            bucket.flat = flat
            bucket.handle = dist.all_reduce(flat, async_op=True)
            self.in_flight.append(bucket)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        torch.futures.wait_all([b.handle.get_future() for b in self.in_flight])
        with torch.no_grad():
            for bucket in self.in_flight:
                for q, (lo, hi) in zip(bucket.params, bucket.offsets):
                    q.grad.copy_(bucket.flat[lo:hi].view_as(q.grad))
        for bucket in self.buckets:
            bucket.reset()
        self.in_flight = []
