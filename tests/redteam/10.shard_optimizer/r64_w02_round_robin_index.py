# expect: fail owners given by index (params[rank::world], as the chapter's bf16 sketch does): balances the count of parameters, not their bytes
# hint: balanc|by (their )?bytes|not (by )?the count|count of (the )?param|index|round.?robin|\[rank::world\]|uneven|half (of )?the bytes
# Wrong: round-robin by position balances the number of parameters; with weights of 256 and
# biases of 16 elements in a shuffled order one rank can own most of the bytes (and moments).
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world, self.rank = dist.get_world_size(), dist.get_rank()
        mine = self.params[self.rank :: self.world]
        self.optimizer = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optimizer is not None:
            self.optimizer.step()
        for i, p in enumerate(self.params):
            dist.broadcast(p.data, src=i % self.world)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
