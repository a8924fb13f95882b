# expect: fail mimics DDP's bf16_compress_hook by hand: divides, casts each gradient to bfloat16, all-reduces and copies back, so every average carries bfloat16 rounding (about 4e-3 relative), not the gradients' own float32 average.
# hint: bfloat16|bf16|dtype|round|precision|compress
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        compressed = p.grad.div(world).to(torch.bfloat16)
        dist.all_reduce(compressed)
        p.grad.copy_(compressed)  # copy_ casts back to the gradient's dtype
