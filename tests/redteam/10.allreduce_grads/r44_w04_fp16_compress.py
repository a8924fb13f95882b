# expect: fail sends each gradient as float16 to halve the bytes and copies the sum back: the average is rounded to float16 (about 5e-4 relative error), tiny gradients flush to zero and large sums overflow to inf, so it is not the float32 average.
# hint: float16|half|dtype|round|precision|compress
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        half = p.grad.to(torch.float16)  # half the bytes on the wire
        dist.all_reduce(half)
        p.grad.copy_(half.to(p.grad.dtype) / world)
