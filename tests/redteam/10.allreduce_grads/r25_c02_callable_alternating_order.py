# expect: pass a callable instance that keeps a call counter and walks the gradients forwards on even calls, backwards on odd ones; every rank makes the same calls, so the collectives still match; divides before summing
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


class _AlternatingAverager:
    def __init__(self):
        self.calls = 0

    @torch.no_grad()
    def __call__(self, model):
        grads = [p.grad for p in model.parameters() if p.grad is not None]
        if self.calls % 2:
            grads.reverse()
        self.calls += 1
        world = dist.get_world_size()
        for g in grads:
            g.div_(world)  # sum of (g / n) over the ranks is the average
            dist.all_reduce(g, op=dist.ReduceOp.SUM)


average_gradients = _AlternatingAverager()
