# expect: pass all-reduces each gradient and rebinds p.grad to a new tensor, p.grad / n, instead of dividing in place
# hint:
import torch
import torch.distributed as dist


def average_gradients(model):
    n = dist.get_world_size()
    params = [p for p in model.parameters() if p.grad is not None]
    for p in params:
        dist.all_reduce(p.grad)
    for p in params:
        p.grad = p.grad / n  # a new tensor of the same dtype, device and layout


answer = average_gradients
