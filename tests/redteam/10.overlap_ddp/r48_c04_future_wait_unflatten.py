# expect: pass dataclass buckets with closures as hooks, _flatten/_unflatten_dense_tensors, waits through get_future().wait()
# hint:
from dataclasses import dataclass, field

import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


@dataclass
class Bucket:
    params: list
    seen: set = field(default_factory=set)


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        current, size = [], 0
        for p in list(model.parameters())[::-1]:
            current.append(p)
            size += p.element_size() * p.numel()
            if size >= bucket_bytes:
                self.buckets.append(Bucket(current))
                current, size = [], 0
        if current:
            self.buckets.append(Bucket(current))
        self.in_flight = []
        for bucket in self.buckets:
            for p in bucket.params:
                p.register_post_accumulate_grad_hook(self._make_hook(bucket))
        self._bucket_of = {id(p): b for b in self.buckets for p in b.params}

    def _make_hook(self, bucket):
        def hook(p):
            self._launch_if_full(bucket, p)

        return hook

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        self._launch_if_full(self._bucket_of[id(p)], p)

    def _launch_if_full(self, bucket, p):
        bucket.seen.add(id(p))
        if len(bucket.seen) == len(bucket.params):
            flat = _flatten_dense_tensors([q.grad for q in bucket.params])
            flat.mul_(1.0 / dist.get_world_size())
            work = dist.all_reduce(flat, async_op=True)
            self.in_flight.append((bucket, flat, work))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        grads_done = 0
        for bucket, flat, work in self.in_flight:
            work.get_future().wait()
            for q, avg in zip(bucket.params, _unflatten_dense_tensors(flat, [q.grad for q in bucket.params])):
                q.grad.copy_(avg)
            grads_done += 1
        for bucket in self.buckets:
            bucket.seen.clear()
        self.in_flight = []
        return grads_done


answer = OverlappedDDP
