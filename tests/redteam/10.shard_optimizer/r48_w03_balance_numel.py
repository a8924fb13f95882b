# expect: fail balances the owners by element count (numel), not bytes: with parameters of different dtypes (float64 beside float32, bfloat16 beside float32) one rank gets far more than its share of the bytes
# hint: bytes|balanc|element_size|numel|dtype
# open: each model's parameters share one dtype, where elements balance the bytes too; mixed dtypes are no case
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        sizes = [0] * world  # how much each rank owns so far
        self.owner = {}
        for p in self.params:
            r = sizes.index(min(sizes))
            self.owner[p] = r
            sizes[r] += p.numel()  # the size of the parameter
        self.optim = optimizer_cls([p for p in self.params if self.owner[p] == rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p in self.params:
            dist.broadcast(p.data, src=self.owner[p])

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
