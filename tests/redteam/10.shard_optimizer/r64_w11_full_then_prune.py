# expect: fail steps an optimizer over all the parameters, then deletes the moments of those it does not own: the state is 1/n only at the end of step, not during it, and the optimizer is not over its own parameters only
# hint: own (param|share)s? only|only (its|this rank's|the rank's) own|over (all|every) (the )?param|param_groups|during (the )?step|peak|(optimizer|holds|steps?|over).{0,40}(does )?not own|recomput|redundant
# Wrong: each step re-creates every non-owned weight's moments (full state, full compute),
# then drops them so that the state left after step() looks sharded; broadcasts fix the values.
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda k: load[k])
            self.owners.append(r)
            load[r] += p.numel() * p.element_size()
        self.not_mine = [p for p, o in zip(self.params, self.owners) if o != rank]
        self.optimizer = optimizer_cls(self.params, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optimizer.step()
        for p in self.not_mine:  # keep only the moments this rank owns
            self.optimizer.state.pop(p, None)
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
