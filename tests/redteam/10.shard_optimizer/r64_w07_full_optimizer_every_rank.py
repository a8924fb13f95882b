# expect: fail every rank builds the optimizer over all the parameters and steps them all, then broadcasts from the owners: the state is replicated, not sharded
# hint: state.{0,60}(not own|every|all|replicat|1/n|1/\d)|(not own|every|all (the )?)param\w*.{0,60}(state|moments?|exp_avg)|replicat|not shard|1/n
# Wrong: the values are DDP's (the broadcast overwrites each rank's own update with the
# owner's identical one) but each rank keeps Adam's moments of every parameter: no saving.
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        load = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda k: load[k])
            self.owners.append(r)
            load[r] += p.numel() * p.element_size()
        # every rank computes the update; the owner's copy is the one that counts
        self.optimizer = optimizer_cls(self.params, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optimizer.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        self.optimizer.zero_grad()


answer = ShardedOptimizer
