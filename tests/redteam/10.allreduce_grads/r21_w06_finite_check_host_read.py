# expect: fail checks every gradient for NaN/inf before sending it: a host read (device sync) per parameter, so on a GPU the host waits for the device once per gradient
# hint: host|sync|read|item|isfinite|nan|wait
import torch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        if not torch.isfinite(p.grad).all():  # never spread a NaN to the other ranks
            raise FloatingPointError("non-finite gradient")
        dist.all_reduce(p.grad)
        p.grad /= world
