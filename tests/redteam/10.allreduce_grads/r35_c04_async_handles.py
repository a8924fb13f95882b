# expect: pass launches all all_reduces with async_op=True, waits on every handle, then divides them all with torch._foreach_div_.
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    handles = [dist.all_reduce(g, async_op=True) for g in grads]
    for handle in handles:
        handle.wait()
    torch._foreach_div_(grads, dist.get_world_size())


answer = average_gradients
