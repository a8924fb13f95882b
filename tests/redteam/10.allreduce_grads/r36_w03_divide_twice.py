# expect: fail averages twice: divides by the world size before and again after the all-reduce
# hint: (twice|divid|world.?size|average|too small|scal)
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        p.grad.div_(world)  # pre-scale, like DDP does
        dist.all_reduce(p.grad)
        p.grad.div_(world)  # ... and take the mean
