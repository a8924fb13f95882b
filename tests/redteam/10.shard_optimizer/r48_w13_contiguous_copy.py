# expect: fail broadcasts p.data.contiguous(): for a non-contiguous parameter (channels_last conv weight, a transposed weight) that is a copy, so the other ranks never receive the update
# hint: contiguous|layout|stride|channels.last|copy|receive
# open: every parameter of the checker's models is contiguous; a transposed or channels_last one is no case here
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=loads.__getitem__)
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data.contiguous(), src=r)  # collectives want dense, contiguous tensors

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
