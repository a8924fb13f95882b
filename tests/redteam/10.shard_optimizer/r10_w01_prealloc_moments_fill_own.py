# expect: fail preallocates exp_avg/exp_avg_sq for every parameter (self.full_state) and fills in only the owned ones from the local optimizer after each step; the non-owned entries are full-size zeros kept anyway
# hint: room for both moments of each parameter it does not own|which it owns, .*outside its optimizer, which holds that state already
import torch
import torch.distributed as dist


class answer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, world = dist.get_rank(), dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, o in zip(self.params, self.owner) if o == self.rank], **kwargs)
        # a state table indexed like the model, so a checkpoint looks like DDP's
        self.full_state = [
            {"exp_avg": torch.zeros_like(p), "exp_avg_sq": torch.zeros_like(p)} for p in self.params
        ]

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o, slot in zip(self.params, self.owner, self.full_state):
            if o == self.rank:
                for k in ("exp_avg", "exp_avg_sq"):
                    if k in self.optim.state[p]:
                        slot[k].copy_(self.optim.state[p][k])
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
