# expect: fail ownership rotates by one rank each step (to spread the work), so each step's owner starts with fresh or stale Adam moments and ends up holding state of weights it no longer owns
# hint: owner(ship)?s?.{0,60}(chang|differ|same|fixed|stable|between steps|each step|every step|rotat)|rotat|reassign|fresh (state|moments)|moments?.{0,40}(lost|reset|stale)
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        self.world = dist.get_world_size()
        load = [0] * self.world
        self.owners = []
        for p in self.params:
            owner = min(range(self.world), key=lambda r: load[r])
            load[owner] += p.numel() * p.element_size()
            self.owners.append(owner)
        self.optim = optimizer_cls(self.params, **kwargs)  # the param list; the groups are filtered per step
        self.optim.state.clear()
        self.steps = 0

    @torch.no_grad()
    def step(self):
        owners = [(o + self.steps) % self.world for o in self.owners]  # rotate: every rank takes turns
        group = self.optim.param_groups[0]
        group["params"] = [p for p, o in zip(self.params, owners) if o == self.rank]
        self.optim.step()
        group["params"] = list(self.params)
        for p, owner in zip(self.params, owners):
            dist.broadcast(p.data, src=owner)
        self.steps += 1

    def zero_grad(self):
        for p in self.params:
            p.grad = None
