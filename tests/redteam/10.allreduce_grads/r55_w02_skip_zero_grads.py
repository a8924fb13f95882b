# expect: fail skips gradients that are all zero on this rank: a data-dependent, rank-local choice of collectives
# hint: zero|same collectives|every rank|skip|mismatch|order
import torch
import torch.distributed as dist


def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        # nothing to add if this rank's gradient is zero (a layer unused this step, dead ReLUs)
        if p.grad is None or not torch.any(p.grad):
            continue
        dist.all_reduce(p.grad)
        p.grad.div_(world)
