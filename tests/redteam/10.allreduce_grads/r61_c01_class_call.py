# expect: pass a callable class instance with __call__, no state kept between calls, div_ under torch.no_grad
# hint:
import torch
import torch.distributed as dist


class GradientAverager:
    """Averages each existing gradient over the ranks: all_reduce (sum) then divide."""

    def __call__(self, model):
        world = dist.get_world_size()
        with torch.no_grad():
            for p in model.parameters():
                g = p.grad
                if g is None:
                    continue
                dist.all_reduce(g, op=dist.ReduceOp.SUM)
                g.div_(world)


average_gradients = GradientAverager()

answer = average_gradients
