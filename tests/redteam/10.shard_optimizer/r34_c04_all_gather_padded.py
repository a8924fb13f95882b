# expect: pass each rank packs its updated share into one flat buffer (its dtype), padded to the largest share, and one all_gather hands every rank all shares (the paper's all-gather form of ZeRO-1's parameter exchange)
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world, self.rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * self.world
        self.shares = [[] for _ in range(self.world)]
        for p in self.params:
            r = loads.index(min(loads))
            self.shares[r].append(p)
            loads[r] += p.numel() * p.element_size()
        self.opt = optimizer_cls(self.shares[self.rank], **kwargs)
        self.width = max(sum(p.numel() for p in s) for s in self.shares)

    @torch.no_grad()
    def step(self):
        self.opt.step()
        dtype = self.params[0].dtype
        mine = self.shares[self.rank]
        send = torch.zeros(self.width, dtype=dtype)
        if mine:
            n = sum(p.numel() for p in mine)
            send[:n] = torch.cat([p.reshape(-1) for p in mine])
        got = [torch.empty(self.width, dtype=dtype) for _ in range(self.world)]
        dist.all_gather(got, send)
        for r, share in enumerate(self.shares):
            if r == self.rank:
                continue
            off = 0
            for p in share:
                p.copy_(got[r][off : off + p.numel()].view_as(p))
                off += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
