# expect: fail each gradient reduced to rank 0, divided there and broadcast back (written as right; the prompt asks for dist.all_reduce, one collective where this makes two)
# hint: reduce|broadcast|all_reduce|two collectives
import torch
import torch.distributed as dist


@torch.no_grad()
def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.reduce(p.grad, dst=0)  # the sum lands on rank 0 only
        if dist.get_rank() == 0:
            p.grad.div_(world)
        dist.broadcast(p.grad, src=0)  # every rank gets rank 0's average
