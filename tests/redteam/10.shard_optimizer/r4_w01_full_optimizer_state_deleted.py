# expect: fail an optimizer over every parameter; the state of non-owned parameters is deleted after each step (full state during the step, all the work on every rank)
# hint: state|every param|all param|own|shard|peak|1/n
import torch
import torch.distributed as dist


class answer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        self.rank = dist.get_rank()
        load = [0] * self.world
        self.owner = []
        for p in self.params:
            r = min(range(self.world), key=lambda k: load[k])
            self.owner.append(r)
            load[r] += p.numel() * p.element_size()
        self.mine = [p for p, o in zip(self.params, self.owner) if o == self.rank]
        self.optim = optimizer_cls(self.params, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        owned = {id(p) for p in self.mine}
        for p in self.params:
            if id(p) not in owned:
                self.optim.state.pop(p, None)  # keep only my shard's state
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
