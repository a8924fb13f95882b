# expect: fail calls torch.set_default_dtype(the parameters' dtype) so that its torch.zeros flat buffers match them: that changes the whole process's default dtype, so after a float64 model every tensor and layer created later in training is float64 too.
# hint: (set_default_dtype|default dtype|global|process|side effect|outside|float64 everywhere)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        torch.set_default_dtype(self.params[0].dtype)  # torch.zeros(n) below: the params' dtype
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
        for r, share in enumerate(self.shares):  # one broadcast per owner
            if not share:
                continue
            flat = torch.zeros(sum(p.numel() for p in share))
            if r == self.rank:
                torch.cat([p.reshape(-1) for p in share], out=flat)
            dist.broadcast(flat, src=r)
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
