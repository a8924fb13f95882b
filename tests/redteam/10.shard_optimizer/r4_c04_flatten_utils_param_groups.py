# expect: pass
# hint: 
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class answer:
    """Contiguous shares by cumulative bytes; torch's flatten helpers for the broadcast."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        total = sum(p.numel() * p.element_size() for p in self.params)
        self.shares = [[] for _ in range(self.world)]
        seen = 0
        for p in self.params:
            nbytes = p.numel() * p.element_size()
            r = min(self.world - 1, (seen + nbytes // 2) * self.world // total)  # by its middle byte
            self.shares[r].append(p)
            seen += nbytes
        self.optim = optimizer_cls([{"params": self.shares[dist.get_rank()]}], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src in range(self.world):
            share = self.shares[src]
            if share:
                flat = _flatten_dense_tensors([p.data for p in share])
                dist.broadcast(flat, src)
                for p, new in zip(share, _unflatten_dense_tensors(flat, [p.data for p in share])):
                    p.data.copy_(new)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
