# expect: pass a small Bucket helper class per bucket, hooks bound with functools.partial, waits on handle.get_future(), copies back with torch.split
# hint:
import functools

import torch
import torch.distributed as dist


class _Bucket:
    def __init__(self, params):
        self.params = params
        self.arrived = 0
        self.flat = None
        self.work = None

    def add_ready(self):
        self.arrived += 1
        return self.arrived == len(self.params)

    def launch(self):
        self.flat = torch.cat([p.grad.reshape(-1) for p in self.params])
        self.flat.div_(dist.get_world_size())
        self.work = dist.all_reduce(self.flat, async_op=True)
        return self.work

    def land(self):
        self.work.get_future().wait()
        pieces = torch.split(self.flat, [p.numel() for p in self.params])
        for p, piece in zip(self.params, pieces):
            p.grad.copy_(piece.view(p.grad.shape))
        self.arrived, self.flat, self.work = 0, None, None


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self._buckets = []
        members, filled = [], 0
        for p in reversed(list(model.parameters())):
            if not p.requires_grad:
                continue
            members.append(p)
            filled += p.nelement() * p.element_size()
            if filled >= bucket_bytes:
                self._buckets.append(_Bucket(members))
                members, filled = [], 0
        if members:
            self._buckets.append(_Bucket(members))
        self._launched = []
        for bucket in self._buckets:
            for p in bucket.params:
                p.register_post_accumulate_grad_hook(functools.partial(self._on_ready, bucket))

    def _on_ready(self, bucket, p):
        if bucket.add_ready():
            bucket.launch()
            self._launched.append(bucket)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        for bucket in self._buckets:
            if any(q is p for q in bucket.params):
                self._on_ready(bucket, p)
                return

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        launched, self._launched = self._launched, []
        for bucket in launched:
            bucket.land()
        for bucket in self._buckets:
            bucket.arrived = 0


answer = OverlappedDDP
