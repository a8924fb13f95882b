# expect: pass divides each gradient by the world size before the sum, as DDP's reducer does, so the all_reduce itself leaves the average.
# hint:
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    for g in grads:
        g.div_(world)
        dist.all_reduce(g)


answer = average_gradients
