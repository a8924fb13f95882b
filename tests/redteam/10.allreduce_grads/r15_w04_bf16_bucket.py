# expect: fail sends the flat bucket in bfloat16 (like bf16_compress_hook): the average loses precision
# hint: bfloat16|bf16|half|float16|precision|dtype|compress|tolerance|not close|rounding
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    # half the bytes on the wire, as chapter 10's bf16_compress_hook does
    flat = torch.cat([g.reshape(-1) for g in grads]).to(torch.bfloat16)
    flat.div_(dist.get_world_size())
    dist.all_reduce(flat)
    for g, part in zip(grads, flat.split([g.numel() for g in grads])):
        g.copy_(part.view_as(g))  # copy_ casts back to float32


answer = average_gradients
