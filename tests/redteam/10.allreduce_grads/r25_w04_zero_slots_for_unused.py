# expect: fail packs zeros for the parameters without a gradient into the flat buffer (one offset per parameter, simple to unpack), so every all-reduce carries the unused layers' bytes; values are right, the extra traffic is not
# hint: zero|unused|None.{0,60}(sent|send|bytes|buffer|pack|slot)|extra bytes|more bytes|pad
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    params = list(model.parameters())
    # every parameter gets its slot, so the offsets never depend on which grads exist
    flat = torch.cat(
        [(p.grad if p.grad is not None else torch.zeros_like(p)).reshape(-1) for p in params]
    )
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for p in params:
        n = p.numel()
        if p.grad is not None:  # leave the unused ones alone
            p.grad.copy_(flat[offset : offset + n].view_as(p))
        offset += n
