# expect: pass one flat buffer per owner made and unmade by torch._utils._flatten_dense_tensors / _unflatten_dense_tensors (DDP's own helpers, dtype kept), every broadcast async and waited through work.get_future().wait(), then copied back
# hint: 
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        params = list(params)
        world, me = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.shares = [[] for _ in range(world)]
        for p in params:
            r = loads.index(min(loads))
            self.shares[r].append(p)
            loads[r] += p.nbytes
        self.all = params
        self.optim = optimizer_cls(self.shares[me], **kwargs) if self.shares[me] else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        sent = []
        for r, share in enumerate(self.shares):
            if share:
                flat = _flatten_dense_tensors([p.detach() for p in share])
                sent.append((share, flat, dist.broadcast(flat, src=r, async_op=True)))
        for share, flat, work in sent:
            work.get_future().wait()
            for p, part in zip(share, _unflatten_dense_tensors(flat, share)):
                p.copy_(part)

    def zero_grad(self):
        for p in self.all:
            p.grad = None


answer = ShardedOptimizer
