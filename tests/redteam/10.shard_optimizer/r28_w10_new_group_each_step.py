# expect: fail creates a new process group in every step() (to keep its broadcasts apart from DDP's all-reduces) and never destroys it: each step adds a communicator on every rank (memory, sockets, a collective to set it up), so a long run grows and slows, for no gain.
# hint: (new_group|process group|each step|every step|grow|leak|setup|communicator|destroy)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        loads = [0] * self.world
        self.owners = []
        for p in self.params:
            r = min(range(self.world), key=loads.__getitem__)
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        group = dist.new_group(ranks=list(range(self.world)))  # the optimizer's own channel
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r, group=group)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
