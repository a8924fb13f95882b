# expect: fail all-reduces the temporary p.grad / world instead of p.grad itself, so the in-place sum lands in a throw-away tensor and p.grad keeps the local gradient.
# hint: in.place|temporar|unchanged|local|copy|out.of.place|average
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad / world)  # divide first, as DDP does, then sum


answer = average_gradients
