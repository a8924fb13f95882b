# expect: fail orders parameters by data_ptr() (a memory address, local to each process) before sharding, so the flat buffers' layouts and the owners can differ between ranks
# hint: order|same order|data_ptr|address|differ|agree
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        # walk the parameters in memory order: neighbours in memory go to the same flat buffer
        params.sort(key=lambda p: p.data_ptr())
        loads = [0] * self.world
        self.shares = [[] for _ in range(self.world)]
        for p in params:
            r = min(range(self.world), key=lambda k: loads[k])
            self.shares[r].append(p)
            loads[r] += p.numel() * p.element_size()
        self.params = params
        self.optim = optimizer_cls(self.shares[self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src, share in enumerate(self.shares):
            flat = torch.cat([p.data.reshape(-1) for p in share])
            dist.broadcast(flat, src=src)
            offset = 0
            for p in share:
                n = p.numel()
                p.data.copy_(flat[offset:offset + n].view_as(p))
                offset += n

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
