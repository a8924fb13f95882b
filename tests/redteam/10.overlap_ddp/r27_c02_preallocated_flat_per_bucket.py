# expect: pass reach-the-cap buckets, each with its own flat buffer allocated once in __init__ (in the dtype torch.cat would give) and refilled by slices every step; divides in finish() after the wait; counts kept as numbers of missing gradients
# hint:
# name: OverlappedDDP
import functools

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, current, size = [], [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.nelement() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.flats = [
            torch.empty(sum(q.numel() for q in b), dtype=functools.reduce(torch.promote_types, [q.dtype for q in b]))
            for b in self.buckets
        ]
        self.index = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.missing = [len(b) for b in self.buckets]
        self.works = {}
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.index[id(p)]
        self.missing[i] -= 1
        if self.missing[i]:
            return
        flat, start = self.flats[i], 0
        for q in self.buckets[i]:
            flat[start : start + q.numel()].copy_(q.grad.reshape(-1))
            start += q.numel()
        self.works[i] = dist.all_reduce(flat, op=dist.ReduceOp.SUM, async_op=True)

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        world = dist.get_world_size()
        for i, work in self.works.items():
            work.wait()
            flat, start = self.flats[i], 0
            flat.div_(world)
            for q in self.buckets[i]:
                q.grad.copy_(flat[start : start + q.numel()].view_as(q))
                start += q.numel()
        self.works = {}
        self.missing = [len(b) for b in self.buckets]
