# expect: pass Hooks made per parameter with functools.partial around a helper that calls _hook, counters cleared with list slicing, flat tensors unpacked with torch.Tensor.split and copies done under no_grad.
# hint: 
# name: OverlappedDDP
import functools

import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self._buckets = []
        acc = []
        acc_bytes = 0
        for p in reversed(tuple(model.parameters())):
            acc = acc + [p]
            acc_bytes = acc_bytes + p.numel() * p.element_size()
            if not acc_bytes < bucket_bytes:
                self._buckets.append(tuple(acc))
                acc, acc_bytes = [], 0
        if acc:
            self._buckets.append(tuple(acc))
        self._index = {id(p): k for k, bucket in enumerate(self._buckets) for p in bucket}
        self._ready = [0 for _ in self._buckets]
        self._works = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(functools.partial(OverlappedDDP._call_hook, self))

    @staticmethod
    def _call_hook(self, p):
        self._hook(p)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        k = self._index[id(p)]
        self._ready[k] += 1
        bucket = self._buckets[k]
        if self._ready[k] == len(bucket):
            with torch.no_grad():
                flat = torch.cat([q.grad.reshape(-1) for q in bucket]) / dist.get_world_size()
            self._works.append((k, dist.all_reduce(flat, async_op=True), flat))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for k, work, flat in self._works:
            work.wait()
            bucket = self._buckets[k]
            for q, piece in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(piece.reshape(q.grad.shape))
        del self._works[:]
        self._ready[:] = [0] * len(self._ready)
