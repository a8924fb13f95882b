# expect: pass a Bucket helper class, hooks bound with functools.partial, close-before-exceeding rule, division after the wait
# hint: 
import functools

import torch
import torch.distributed as dist


class _Bucket:
    def __init__(self, params):
        self.params = params
        self.sizes = [p.numel() for p in params]
        self.arrived = 0
        self.work = None
        self.flat = None

    def launch(self):
        self.flat = torch.cat([p.grad.reshape(-1) for p in self.params])
        self.work = dist.all_reduce(self.flat, async_op=True)

    def land(self, world):
        self.work.wait()
        self.flat.div_(world)
        for p, part in zip(self.params, torch.split(self.flat, self.sizes)):
            p.grad.copy_(part.view_as(p))
        self.arrived, self.work, self.flat = 0, None, None


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        groups, current, size = [], [], 0
        for p in reversed(list(model.parameters())):
            nbytes = p.numel() * p.element_size()
            if current and size + nbytes > bucket_bytes:  # no bucket goes over the cap
                groups.append(current)
                current, size = [], 0
            current.append(p)
            size += nbytes
        if current:
            groups.append(current)
        self.buckets = [_Bucket(g) for g in groups]
        self.launched = []
        for bucket in self.buckets:
            for p in bucket.params:
                p.register_post_accumulate_grad_hook(functools.partial(self._arrive, bucket))

    def _arrive(self, bucket, p):
        bucket.arrived += 1
        if bucket.arrived == len(bucket.params):
            bucket.launch()
            self.launched.append(bucket)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        for bucket in self.buckets:
            if any(q is p for q in bucket.params):
                return self._arrive(bucket, p)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        world = dist.get_world_size()
        launched, self.launched = self.launched, []
        for bucket in launched:
            bucket.land(world)


answer = OverlappedDDP
