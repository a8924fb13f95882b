# expect: fail multiplies the learning rate by the world size (the linear scaling rule for more GPUs) when it builds the local optimizer: the gradients already arrive averaged, so every update is world_size times too large and the parameters leave DDP's.
# hint: (lr|learning rate|scal|world.?size|kwargs|chang|linear)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        loads = [0] * self.world
        self.owners = []
        for p in self.params:
            r = min(range(self.world), key=lambda i: (loads[i], i))
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == self.rank]
        kwargs = dict(kwargs)
        kwargs["lr"] = kwargs.get("lr", 1e-3) * self.world  # n ranks: n times the batch
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
