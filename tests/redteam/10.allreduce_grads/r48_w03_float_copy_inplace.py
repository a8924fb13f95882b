# expect: fail all-reduces p.grad.float() in place: for float64/bfloat16/float16 gradients that is a copy, so p.grad is only divided, never summed
# hint: dtype|float64|bfloat16|float16|half|copy|in.place
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Average each gradient over the ranks (sums in float32, which every backend supports)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad.float())  # a float32 view of the gradient for the reduction
        p.grad.div_(world)


answer = average_gradients
