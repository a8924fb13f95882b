# expect: fail all-reduces a bfloat16 copy of each gradient to halve the bytes: the averages lose precision (wrong dtype)
# hint: (dtype|bfloat16|bf16|half|precision|round|float32|tolerance|exact)
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        g = p.grad.to(torch.bfloat16)  # like bf16_compress_hook
        dist.all_reduce(g)
        p.grad.copy_(g.float() / world)
