# expect: fail one flat buffer holding both moments for ALL parameters, only this rank's slots written
# hint: (state|moment|exp_avg|bytes|memory).*(own|1/n|every|all |share)|(own|1/n|every|all |share).*(state|moment|exp_avg|bytes|memory)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        load = [0] * self.world
        self.owner = []
        for p in self.params:
            r = load.index(min(load))
            self.owner.append(r)
            load[r] += p.numel() * p.element_size()
        self.offsets = []
        off = 0
        for p in self.params:
            self.offsets.append(off)
            off += p.numel()
        self.numel = off
        # [exp_avg | exp_avg_sq], one flat tensor, indexed like the parameters
        self.moments = torch.zeros(2 * self.numel, dtype=self.params[0].dtype)
        self.optim = optimizer_cls([p for p, r in zip(self.params, self.owner) if r == self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, r, off in zip(self.params, self.owner, self.offsets):
            if r == self.rank:
                s = self.optim.state[p]
                n = p.numel()
                self.moments[off:off + n].copy_(s["exp_avg"].reshape(-1))
                self.moments[self.numel + off:self.numel + off + n].copy_(s["exp_avg_sq"].reshape(-1))
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
