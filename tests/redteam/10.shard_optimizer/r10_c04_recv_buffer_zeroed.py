# expect: pass a single receive buffer sized for the largest share, zeroed after each use
# hint: -
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        self.world = dist.get_world_size()
        nbytes = [0] * self.world
        self.owners = []
        for p in self.params:
            owner = min(range(self.world), key=nbytes.__getitem__)
            self.owners.append(owner)
            nbytes[owner] += p.nbytes
        self.shares = [[p for p, o in zip(self.params, self.owners) if o == r] for r in range(self.world)]
        biggest = max(sum(p.numel() for p in s) for s in self.shares)
        self.recv = torch.zeros(biggest, dtype=self.params[0].dtype)
        self.opt = optimizer_cls(self.shares[self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.opt.step()
        for src in range(self.world):
            share = self.shares[src]
            if not share:
                continue
            n = sum(p.numel() for p in share)
            buf = self.recv[:n]
            if src == self.rank:
                torch.cat([p.reshape(-1) for p in share], out=buf)
            dist.broadcast(buf, src=src)
            if src != self.rank:
                i = 0
                for p in share:
                    p.copy_(buf[i:i + p.numel()].reshape(p.shape))
                    i += p.numel()
            self.recv.zero_()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
