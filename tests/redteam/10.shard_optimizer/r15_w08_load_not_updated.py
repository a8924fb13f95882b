# expect: fail greedy owner choice never adds the bytes to the load: every parameter goes to rank 0
# hint: balanc|1/n|share|owner|bytes|state.*(rank|per)|all (on|to) rank 0|uneven|shard
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        owned_bytes = {r: 0 for r in range(world)}
        self.owner = {}
        for p in self.params:
            r = min(owned_bytes, key=owned_bytes.get)  # the rank that owns the fewest bytes so far
            self.owner[p] = r
        mine = [p for p in self.params if self.owner[p] == dist.get_rank()]
        self.opt = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
        for p in self.params:
            dist.broadcast(p.data, src=self.owner[p])

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
