# expect: fail balances the element counts, not the bytes: right only while every parameter has one dtype; a model mixing bf16 and fp32 (or fp64) parameters is split unevenly in bytes
# hint: byte|element_size|numel|dtype|balanc
# open: not caught on purpose: every model the prompt describes has parameters of one dtype, where numel() balances the bytes; a case that mixed float32 and float64 layers was tried and failed 7 right answers written from the prompt (one flat buffer per owner, made by torch.cat or in the first parameter's dtype, right for every model it names)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])  # fewest bytes so far
            self.owner.append(r)
            loads[r] += p.numel()  # the size of a parameter
        mine = [p for p, o in zip(self.params, self.owner) if o == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
