# expect: fail consolidates the optimizer's state_dict on every rank every step with all_gather_object (like ZeroRedundancyOptimizer.consolidate_state_dict, but on all ranks and kept), so each rank holds every rank's Adam moments
# hint: keeps .*(exp_avg|moment)
import torch
import torch.distributed as dist


class answer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        loads = [0] * self.world
        self.owner = []
        for p in self.params:
            r = min(range(self.world), key=lambda i: loads[i])
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, o in zip(self.params, self.owner) if o == self.rank], **kwargs)
        self.consolidated = None

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)
        # keep a full checkpoint ready on every rank
        gathered = [None] * self.world
        dist.all_gather_object(gathered, self.optim.state_dict())
        self.consolidated = gathered

    def zero_grad(self):
        for p in self.params:
            p.grad = None
