# expect: fail a dist.barrier() after every all-reduce: extra synchronizations
# hint: barrier|synchroni[sz]|extra collective|wait
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        dist.barrier()  # make sure every rank has the sum before dividing
        p.grad /= world
