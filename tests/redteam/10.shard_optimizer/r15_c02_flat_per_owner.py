# expect: pass contiguous balanced shares, one flat broadcast per owner, zeros in place
# hint: 
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = [p for p in params]
        self.world = dist.get_world_size()
        self.rank = dist.get_rank()
        n = len(self.params)
        # contiguous, as even as the count allows: 8 over 3 ranks gives 3, 3, 2
        self.shares = [[] for _ in range(self.world)]
        for i, p in enumerate(self.params):
            self.shares[i * self.world // n].append(p)
        self._opt = optimizer_cls(self.shares[self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self._opt.step()
        for src, share in enumerate(self.shares):
            if not share:
                continue
            flat = torch.cat([p.detach().reshape(-1) for p in share])
            dist.broadcast(flat, src=src)
            if src != self.rank:
                offset = 0
                for p in share:
                    k = p.numel()
                    p.copy_(flat[offset:offset + k].view_as(p))
                    offset += k

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()


answer = ShardedOptimizer
