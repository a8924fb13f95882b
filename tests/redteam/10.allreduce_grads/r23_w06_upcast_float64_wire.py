# expect: fail sends every float32 gradient as float64 "for an exact sum": the averages come out right, but each all-reduce carries twice the bytes (plus a copy each way), doubling the communication the exercise is about
# hint: float64|double|dtype|upcast|bytes|twice|precision|copy
import torch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        acc = p.grad.to(torch.float64)  # sum in double precision, no rounding across ranks
        dist.all_reduce(acc)
        acc /= world
        p.grad.copy_(acc)  # back to the grad's own dtype
