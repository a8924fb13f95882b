# expect: fail uses torch.distributed.nn.functional.all_reduce, the autograd-aware collective, which returns a new tensor and leaves its input unchanged: p.grad is only divided, never summed
# hint: in.place|out.of.place|returns|new tensor|not (summed|averaged)|average
import torch
import torch.distributed as dist
from torch.distributed.nn.functional import all_reduce


@torch.no_grad()
def average_gradients(model):
    """Sum with the distributed all_reduce, divide by the number of ranks."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            all_reduce(p.grad)
            p.grad.div_(world)


answer = average_gradients
