# expect: pass lets the collective average: dist.all_reduce(p.grad, op=dist.ReduceOp.AVG), in place, which this PyTorch's gloo supports, instead of a SUM and a division.
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)  # the sum divided by the world size
