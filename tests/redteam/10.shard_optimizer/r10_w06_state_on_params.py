# expect: fail attaches zero moment buffers to every parameter as attributes (p.exp_avg, p.exp_avg_sq), owned or not
# hint: (state|moment|exp_avg|bytes|memory).*(own|1/n|every|all |share)|(own|1/n|every|all |share).*(state|moment|exp_avg|bytes|memory)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        self.world = dist.get_world_size()
        load = [0] * self.world
        for p in self.params:
            r = min(range(self.world), key=lambda i: (load[i], i))
            p._zero_owner = r
            load[r] += p.numel() * p.element_size()
            # the moments live with the parameter, whoever owns it
            p.exp_avg = torch.zeros_like(p, requires_grad=False)
            p.exp_avg_sq = torch.zeros_like(p, requires_grad=False)
        self.optim = optimizer_cls([p for p in self.params if p._zero_owner == self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p in self.params:
            if p._zero_owner == self.rank:
                p.exp_avg.copy_(self.optim.state[p]["exp_avg"])
                p.exp_avg_sq.copy_(self.optim.state[p]["exp_avg_sq"])
            dist.broadcast(p.data, src=p._zero_owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
