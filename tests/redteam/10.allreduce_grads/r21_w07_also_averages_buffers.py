# expect: fail also all-reduces and averages the model's floating-point buffers (BatchNorm running stats): extra collectives, and buffers changed that the exercise leaves alone
# hint: buffer|running|batchnorm|extra|collective|only.*grad
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world
    for b in model.buffers():  # keep running statistics in step too, as SyncBatchNorm would
        if b.is_floating_point():
            dist.all_reduce(b)
            b /= world
