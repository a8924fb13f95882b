# expect: fail uses dist.reduce (the sum on rank 0 only) instead of dist.all_reduce, so only rank 0's gradients are averaged
# hint: dist\.reduce|\breduce\b|rank 0|other ranks?|every rank|all ranks|dst|destination|differ (between|across) ranks
# Wrong: dist.reduce leaves the sum on its destination only; the other ranks divide what is left in
# their own buffers, and their optimizers step with gradients that differ from rank 0's.
import torch
import torch.distributed as dist


@torch.no_grad()
def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.reduce(p.grad, dst=0)
        p.grad /= world
