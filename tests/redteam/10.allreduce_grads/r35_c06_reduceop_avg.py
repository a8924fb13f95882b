# expect: pass one all_reduce with op=ReduceOp.AVG (gloo supports it in torch 2.14), None grads skipped
# hint:
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)


answer = average_gradients
