# expect: pass Divides each gradient by the world size first, as DDP's buckets do, then sums it in place with one all_reduce per gradient, in model.parameters() order.
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    scale = 1.0 / dist.get_world_size()
    for _, param in model.named_parameters():
        grad = param.grad
        if grad is None:
            continue
        grad.mul_(scale)
        dist.all_reduce(grad, op=dist.ReduceOp.SUM)
