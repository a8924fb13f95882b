# expect: pass a small Bucket dataclass per bucket, id(p) -> bucket map, divide before the async launch
# hint:
# name: OverlappedDDP
from dataclasses import dataclass, field

import torch
import torch.distributed as dist


@dataclass
class _Bucket:
    params: list = field(default_factory=list)
    nbytes: int = 0
    ready: int = 0
    flat: torch.Tensor = None
    work: object = None


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.buckets = []
        self.where = {}
        current = _Bucket()
        for p in reversed([q for q in model.parameters() if q.requires_grad]):
            current.params.append(p)
            current.nbytes += p.numel() * p.element_size()
            if current.nbytes >= bucket_bytes:
                self.buckets.append(current)
                current = _Bucket()
        if current.params:
            self.buckets.append(current)
        for b in self.buckets:
            for p in b.params:
                self.where[id(p)] = b
                p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        b = self.where[id(p)]
        b.ready += 1
        if b.ready == len(b.params):
            b.flat = torch.cat([q.grad.reshape(-1) for q in b.params])
            b.flat.div_(dist.get_world_size())
            b.work = dist.all_reduce(b.flat, async_op=True)

    def finish(self):
        for b in self.buckets:
            if b.work is None:
                continue
            b.work.wait()
            offset = 0
            for q in b.params:
                n = q.numel()
                q.grad.copy_(b.flat[offset:offset + n].view_as(q.grad))
                offset += n
        for b in self.buckets:
            b.ready, b.flat, b.work = 0, None, None
