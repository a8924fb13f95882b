# expect: fail It all-reduces p.grad.to(torch.float32), which is p.grad itself only for float32 gradients; for float64 or bfloat16 it is a copy, so the sum is thrown away and p.grad ends as this rank's gradient divided by the world size.
# hint: dtype|float32|float64|bfloat16|copy|in place
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad.to(torch.float32))  # gloo is happiest with float32
        p.grad.div_(world)
