# expect: fail plans the buckets into a mutable default argument, so a second instance inherits the buckets of the first
# hint: instance|carr|state|bucket|class
import torch
import torch.distributed as dist


def plan_buckets(params, bucket_bytes, buckets=[]):
    """Reverse order, each bucket closed once it reaches bucket_bytes."""
    current, size = [], 0
    for p in reversed(params):
        current.append(p)
        size += p.numel() * p.element_size()
        if size >= bucket_bytes:
            buckets.append(current)
            current, size = [], 0
    if current:
        buckets.append(current)
    return buckets


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = plan_buckets(params, bucket_bytes)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.inflight = {}
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.inflight[i] = (flat, dist.all_reduce(flat, async_op=True))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, bucket in enumerate(self.buckets):
            flat, handle = self.inflight[i]
            handle.wait()
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q.grad))
        self.inflight = {}
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
