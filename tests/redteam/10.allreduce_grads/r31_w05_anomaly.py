# expect: fail turns on torch.autograd.set_detect_anomaly(True) to catch NaN gradients and leaves it on
# hint: anomaly
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    torch.autograd.set_detect_anomaly(True)  # a NaN gradient on one rank spreads to all
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad.div_(world)


answer = average_gradients
