# expect: fail leaves a debug print of every averaged gradient's norm: formatting a tensor's value reads it on the host, one synchronization (GPU to CPU copy) per parameter per step, and floods the output
# hint: print|host|item|sync|read|format|log|debug
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    rank = dist.get_rank()
    for name, p in model.named_parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
        if rank == 0:
            print(f"{name}: |avg grad| = {p.grad.norm():.4g}")  # to see that it did something
