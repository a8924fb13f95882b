# expect: pass hooks as closures over a bucket index, itertools.accumulate offsets, waits on handle.get_future()
# hint: 
import itertools

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = [[]]
        filled = 0
        for p in params[::-1]:
            if filled >= bucket_bytes:
                self.buckets.append([])
                filled = 0
            self.buckets[-1].append(p)
            filled += p.nelement() * p.element_size()
        self.offsets = [
            [0, *itertools.accumulate(p.numel() for p in bucket)] for bucket in self.buckets
        ]
        self.counts = [0] * len(self.buckets)
        self.inflight = []
        for index, bucket in enumerate(self.buckets):
            for p in bucket:
                p.register_post_accumulate_grad_hook(self._make_hook(index))

    def _make_hook(self, index):
        def hook(p):
            self.counts[index] += 1
            if self.counts[index] == len(self.buckets[index]):
                self._send(index)

        return hook

    def _send(self, index):
        world = dist.get_world_size()
        flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[index]]).div_(world)
        self.inflight.append((index, flat, dist.all_reduce(flat, async_op=True)))

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        for index, bucket in enumerate(self.buckets):
            if any(q is p for q in bucket):
                self._make_hook(index)(p)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        while self.inflight:
            index, flat, handle = self.inflight.pop(0)
            handle.get_future().wait()
            bounds = self.offsets[index]
            for q, lo, hi in zip(self.buckets[index], bounds, bounds[1:]):
                q.grad.copy_(flat[lo:hi].view_as(q))
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
