# expect: fail builds optimizer_cls over ALL parameters and hides the others' gradients (p.grad = None) before each step so Adam makes state only for its own: the prompt asks for an optimizer over this rank's own parameters, and the step throws away the averaged gradients of the parameters it does not own
# hint: own|only|all param|param.?group|grad.*none|mask|discard|whole
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
            r = loads.index(min(loads))
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.others = [p for p, r in zip(self.params, self.owner) if r != rank]
        # one optimizer; Adam only makes state for parameters that have a grad
        self.optim = optimizer_cls(self.params, **kwargs)

    @torch.no_grad()
    def step(self):
        for p in self.others:
            p.grad = None  # not mine: skip it, its owner sends it
        self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        self.optim.zero_grad(set_to_none=True)


answer = ShardedOptimizer
