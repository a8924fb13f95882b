# expect: pass scale each grad by 1/world first, then an in-place SUM all-reduce (named_parameters loop)
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    scale = 1.0 / dist.get_world_size()
    for _name, param in model.named_parameters():
        grad = param.grad
        if grad is None:
            continue
        grad.mul_(scale)
        dist.all_reduce(grad, op=dist.ReduceOp.SUM)
