# expect: pass
# hint: 
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class answer:
    """Buckets as index lists; a set of arrived gradients; torch's flatten helpers."""

    def __init__(self, model, bucket_bytes):
        self.params = list(model.parameters())
        self.buckets, current, nbytes = [], [], 0
        for i in range(len(self.params) - 1, -1, -1):
            current.append(i)
            nbytes += self.params[i].numel() * self.params[i].element_size()
            if nbytes >= bucket_bytes:
                self.buckets.append(current)
                current, nbytes = [], 0
        if current:
            self.buckets.append(current)
        self.index = {id(p): i for i, p in enumerate(self.params)}
        self.bucket_of = {i: b for b, idx in enumerate(self.buckets) for i in idx}
        self.arrived = [set() for _ in self.buckets]
        self.inflight = []
        for p in self.params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.index[id(p)]
        b = self.bucket_of[i]
        self.arrived[b].add(i)
        if len(self.arrived[b]) == len(self.buckets[b]):
            grads = [self.params[j].grad for j in self.buckets[b]]
            flat = _flatten_dense_tensors(grads)
            flat.mul_(1.0 / dist.get_world_size())
            self.inflight.append((b, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        for b, flat, h in self.inflight:
            h.wait()
            grads = [self.params[j].grad for j in self.buckets[b]]
            for g, avg in zip(grads, _unflatten_dense_tensors(flat, grads)):
                g.copy_(avg)
        self.inflight = []
        for s in self.arrived:
            s.clear()
