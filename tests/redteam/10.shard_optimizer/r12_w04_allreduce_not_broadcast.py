# expect: fail sends the updated parameters with an all-reduce (SUM) of buffers zeroed except on the owner, instead of a broadcast from the owner (values right, wrong collective, n-1 times the traffic)
# hint: broadcast|all.?reduce|collective
# name: ShardedOptimizer
import torch
import torch.distributed as dist


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
            if owner == self.rank:
                flat = torch.cat([p.reshape(-1) for p in share])
            else:
                flat = torch.zeros(sum(p.numel() for p in share), dtype=share[0].dtype)
            dist.all_reduce(flat)  # owner's values + zeros from the others = the owner's values
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None
