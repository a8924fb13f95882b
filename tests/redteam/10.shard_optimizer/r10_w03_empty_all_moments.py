# expect: fail reserves torch.empty moment buffers for every parameter (never filled): room for state it does not own
# hint: (state|moment|exp_avg|bytes|memory).*(own|1/n|every|all |share)|(own|1/n|every|all |share).*(state|moment|exp_avg|bytes|memory)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        self.rank = rank
        sizes = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda i: (sizes[i], i))
            self.owner.append(r)
            sizes[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, r in zip(self.params, self.owner) if r == rank], **kwargs)
        # reserve the memory now, so an out-of-memory shows at start-up rather than mid-training
        self.reserved = {
            id(p): (torch.empty_like(p), torch.empty_like(p)) for p in self.params
        }

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
