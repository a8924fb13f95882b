# expect: pass each owner's parameters sent with torch's internal dist._broadcast_coalesced (what DDP uses to sync module states: one flat buffer per owner, unpacked in place on the receivers), a broadcast per owner that bypasses the Python dist.broadcast
# hint: 
import torch
import torch.distributed as dist

_BUCKET = 250 * 2**20  # bytes per coalesced message: every share fits in one


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, me = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            r = loads.index(min(loads))
            self.shares[r].append(p)
            loads[r] += p.nbytes
        self.optim = optimizer_cls(self.shares[me], **kwargs) if self.shares[me] else None
        self.pg = dist.distributed_c10d._get_default_group()

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for r, share in enumerate(self.shares):
            if share:
                dist._broadcast_coalesced(self.pg, [p.detach() for p in share], _BUCKET, r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
