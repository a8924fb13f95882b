# expect: fail all-reduces the gradients but never divides by the world size, so every p.grad holds the sum over the ranks, not the average.
# hint: average|divid|sum|world
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    """dist.all_reduce leaves the reduced gradient on every rank."""
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)


answer = average_gradients
