# expect: pass
# hint:
# Right: flattens with torch._utils' dense-tensor helpers (torch.cat of the views), waits through
# handle.get_future().wait(), and divides by the world size in finish(), after the wait (allowed).
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets, bucket, filled = [], [], 0
        for p in params[::-1]:
            bucket.append(p)
            filled += p.nbytes
            if filled >= bucket_bytes:
                self.buckets.append(bucket)
                bucket, filled = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.where = {id(p): b for b, ps in enumerate(self.buckets) for p in ps}
        self.arrived = {b: 0 for b in range(len(self.buckets))}
        self.inflight = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        b = self.where[id(p)]
        self.arrived[b] += 1
        if self.arrived[b] == len(self.buckets[b]):
            flat = _flatten_dense_tensors([q.grad for q in self.buckets[b]])
            self.inflight.append((b, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        world = dist.get_world_size()
        for b, flat, handle in self.inflight:
            handle.get_future().wait()
            flat.div_(world)
            grads = [q.grad for q in self.buckets[b]]
            for g, avg in zip(grads, _unflatten_dense_tensors(flat, grads), strict=True):
                g.copy_(avg)
        self.inflight.clear()
        for b in self.arrived:
            self.arrived[b] = 0


answer = OverlappedDDP
