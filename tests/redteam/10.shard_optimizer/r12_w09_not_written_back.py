# expect: fail the flat buffer is broadcast and unflattened, but the received tensors are never copied back into the parameters: non-owners keep their stale weights
# hint: written back|write (it )?back|cop(y|ied).{0,20}back|copy_|not (updated|received|applied)|stale|unflatten|receiv|never (reach|arriv)
# name: ShardedOptimizer
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        load = [0] * world
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            owner = min(range(world), key=lambda r: load[r])
            load[owner] += p.numel() * p.element_size()
            self.shares[owner].append(p)
        self.optim = optimizer_cls(self.shares[self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for owner, share in enumerate(self.shares):
            flat = _flatten_dense_tensors([p.data for p in share])
            dist.broadcast(flat, src=owner)
            for p, new in zip(share, _unflatten_dense_tensors(flat, [p.data for p in share])):
                p = new.view_as(p)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
