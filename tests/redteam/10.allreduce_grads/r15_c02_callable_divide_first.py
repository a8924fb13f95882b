# expect: pass a class with __call__ that divides by the world size before the all-reduce (DDP's order)
# hint: 
import torch
import torch.distributed as dist


class GradientAverager:
    """Average p.grad over the ranks: each rank sends grad / n, so the sum is the average."""

    def __init__(self, group=None):
        self.group = group  # None: the default group, all ranks

    def __call__(self, model):
        n = dist.get_world_size(self.group)
        for name, p in model.named_parameters():
            if p.grad is None:  # unused in forward: left as it is
                continue
            p.grad.mul_(1.0 / n)
            dist.all_reduce(p.grad, op=dist.ReduceOp.SUM, group=self.group)


answer = GradientAverager()
