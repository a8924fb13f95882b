# expect: fail contiguous shares of the parameter count (8 over 3 ranks: 3, 3, 2), one flat broadcast per owner: the prompt asks for shares balanced by bytes, and on a model whose weights and biases are not in alternating order (the last case) consecutive shares of the count hold 6 weights on one rank and 2 on the other. Held right in round 15, when every case of the prompt had parameters of one size or alternating weights and biases
# hint: consecutive shares of the count
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
