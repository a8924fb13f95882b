# expect: fail sends the gradients in float16 to halve the bytes (bf16_compress_hook's advice): the result is a rounded average
# hint: precision|float16|half|bf16|bfloat16|round|dtype|average|differ|match|close
import torch
import torch.distributed as dist


def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        wire = (p.grad / world).to(torch.float16)  # half the bytes on the link
        dist.all_reduce(wire)
        p.grad.copy_(wire)
