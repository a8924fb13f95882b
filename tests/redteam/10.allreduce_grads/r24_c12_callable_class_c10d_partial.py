# expect: pass a callable object; the sum is a functools.partial of torch.distributed.distributed_c10d.all_reduce with op and group spelled out
# hint: 
import functools

from torch.distributed import distributed_c10d as c10d


class GradientAverager:
    """Calling it with a model averages that model's gradients over the ranks."""

    def __init__(self):
        self.sum_over_ranks = functools.partial(
            c10d.all_reduce, op=c10d.ReduceOp.SUM, group=c10d.group.WORLD
        )

    def __call__(self, model):
        ranks = c10d.get_world_size(group=c10d.group.WORLD)
        for name, p in model.named_parameters():
            if p.grad is None:
                continue
            self.sum_over_ranks(p.grad)
            p.grad.div_(ranks)


answer = GradientAverager()
