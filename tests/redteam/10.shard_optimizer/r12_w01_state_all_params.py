# expect: fail the local optimizer is built over ALL parameters, so every rank keeps Adam's moments of weights it does not own (values right, state not sharded)
# hint: optimi[sz]er state|moments?|exp_avg|state.{0,30}bytes|1/n|does not own|not own|own(ed)? (param|weight)s? only|every (param|weight)|all (the )?(param|weight)s|shard
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        load = [0] * world
        self.owners = []
        for p in self.params:
            owner = min(range(world), key=lambda r: load[r])
            load[owner] += p.numel() * p.element_size()
            self.owners.append(owner)
        # every rank steps everything; the broadcast then makes the owner's copy win
        self.optim = optimizer_cls(self.params, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
