# expect: fail gradients sent in bfloat16 to halve the bytes: the average loses precision
# hint: bfloat16|bf16|half|float16|precision|dtype|compress|round
import torch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        sent = p.grad.to(torch.bfloat16)  # half the bytes, as bf16_compress_hook does
        dist.all_reduce(sent)
        p.grad.copy_(sent.to(p.grad.dtype) / world)
