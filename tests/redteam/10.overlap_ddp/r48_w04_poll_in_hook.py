# expect: fail polls handle.is_completed() inside the hook until the all-reduce is done, so backward blocks on every bucket
# hint: wait|block|hook|complet|overlap
import time

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = []
        current, size = [], 0
        for p in reversed(params):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            handle = dist.all_reduce(flat, async_op=True)
            # no handle.wait() here: just let the transfer finish before the next bucket
            # competes for the link, so buckets complete in order, as DDP launches them
            while not handle.is_completed():
                time.sleep(0)
            self.pending.append((i, flat, handle))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.pending:
            handle.wait()
            for q, part in zip(self.buckets[i], flat.split([q.numel() for q in self.buckets[i]])):
                q.grad.copy_(part.view_as(q.grad))
        self.pending = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
