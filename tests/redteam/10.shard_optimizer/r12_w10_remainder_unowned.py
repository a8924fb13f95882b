# expect: fail contiguous shares of len(params) // world parameters each: on 3 ranks the last 2 of 8 weights have no owner and are never updated (right on 2 and 4 ranks)
# hint: owner|unowned|no owner|every (weight|param)|remainder|left ?over|not (updated|stepped)|never (updated|stepped)|3 ranks
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        per_rank = len(self.params) // world  # equal shares: the same bytes on every rank
        self.shares = [self.params[r * per_rank : (r + 1) * per_rank] for r in range(world)]
        self.optim = optimizer_cls(self.shares[self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for owner, share in enumerate(self.shares):
            flat = torch.cat([p.reshape(-1) for p in share])
            dist.broadcast(flat, src=owner)
            if owner != self.rank:
                for p, part in zip(share, flat.split([p.numel() for p in share])):
                    p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None
