# expect: pass Lets the collective do the division with dist.all_reduce(..., op=dist.ReduceOp.AVG), which this PyTorch's gloo supports, one call per existing gradient.
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
