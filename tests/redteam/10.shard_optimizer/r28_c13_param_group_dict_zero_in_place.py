# expect: pass
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        held = {r: 0 for r in range(self.world)}
        self.owner_of = []
        for p in self.params:
            r = min(held, key=lambda k: (held[k], k))
            self.owner_of.append(r)
            held[r] += p.nbytes
        mine = [p for p, r in zip(self.params, self.owner_of) if r == self.rank]
        # one param group, in the dict form; the kwargs become its defaults
        self.optim = optimizer_cls([{"params": mine}], **kwargs) if mine else None
        # send by owner, then by position: the same sequence on every rank
        self.send_order = sorted(range(len(self.params)), key=lambda i: (self.owner_of[i], i))

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for i in self.send_order:
            dist.broadcast(self.params[i].data, src=self.owner_of[i])

    def zero_grad(self):
        for p in self.params:  # zeros in place, as zero_grad(set_to_none=False) leaves them
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()


answer = ShardedOptimizer
