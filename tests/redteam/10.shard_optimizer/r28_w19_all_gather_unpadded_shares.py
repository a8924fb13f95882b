# expect: fail sends the updated parameters with one all_gather of each rank's flat share, unpadded: all_gather needs the same size on every rank, so it fails (or hangs) whenever the shares differ in size (3 ranks over 8 equal weights, say), and works only when every share holds the same number of elements.
# hint: (all_gather|same size|unequal|pad|padd|size mismatch|different sizes?|shares? differ)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        loads = [0] * self.world
        self.shares = [[] for _ in range(self.world)]
        for p in self.params:
            r = min(range(self.world), key=loads.__getitem__)
            self.shares[r].append(p)
            loads[r] += p.numel() * p.element_size()
        mine = self.shares[self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        mine = self.shares[self.rank]
        flat = torch.cat([p.reshape(-1) for p in mine]) if mine else torch.empty(0)
        outs = [torch.empty(sum(p.numel() for p in s), dtype=s[0].dtype if s else flat.dtype) for s in self.shares]
        dist.all_gather(outs, flat)  # one collective instead of one broadcast per rank
        for share, out in zip(self.shares, outs):
            for p, part in zip(share, out.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
