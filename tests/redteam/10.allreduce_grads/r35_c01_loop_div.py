# expect: pass the plain loop: all_reduce each non-None p.grad in place, then div_ by the world size.
# hint:
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad.div_(world)


answer = average_gradients
