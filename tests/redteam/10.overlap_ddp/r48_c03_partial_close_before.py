# expect: pass closes a bucket before a parameter would take it past the cap; functools.partial hooks; divides after the wait
# hint:
import functools

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = [[]]
        filled = 0
        for p in reversed(params):
            nbytes = p.numel() * p.element_size()
            if self.buckets[-1] and filled + nbytes > bucket_bytes:
                self.buckets.append([])
                filled = 0
            self.buckets[-1].append(p)
            filled += nbytes
        self.counts = [0] * len(self.buckets)
        self.work = []
        for index, bucket in enumerate(self.buckets):
            for p in bucket:
                p.register_post_accumulate_grad_hook(functools.partial(self._ready, index))

    def _ready(self, index, p):
        self._hook(p, index)

    def _hook(self, p, index=None):
        """Autograd calls this once p.grad holds this step's gradient."""
        if index is None:
            index = next(i for i, b in enumerate(self.buckets) if any(q is p for q in b))
        self.counts[index] += 1
        if self.counts[index] < len(self.buckets[index]):
            return
        flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[index]])
        self.work.append((index, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        world = dist.get_world_size()
        for index, flat, handle in self.work:
            handle.wait()
            flat.div_(world)
            pieces = torch.split(flat, [q.numel() for q in self.buckets[index]])
            for q, piece in zip(self.buckets[index], pieces):
                q.grad.copy_(piece.reshape(q.shape))
        self.work.clear()
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
