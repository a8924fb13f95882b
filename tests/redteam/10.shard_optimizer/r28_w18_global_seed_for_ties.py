# expect: fail calls torch.manual_seed(0) in __init__ so that every rank draws the same random tie-breaks: that reseeds the process's global generator, so the training's later random draws (dropout, shuffling, initialization) restart from seed 0 on every rank, work outside what the class should do.
# hint: (manual_seed|seed|global (rng|generator|random)|random state|side effect|outside|reseed)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        torch.manual_seed(0)  # the same random tie-breaks on every rank
        loads = torch.zeros(self.world, dtype=torch.int64)
        self.owners = []
        for p in self.params:
            least = (loads == loads.min()).nonzero().flatten()
            r = int(least[torch.randint(len(least), ())])  # a random one of the least loaded
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
