# expect: pass functional collectives (torch.distributed._functional_collectives.all_reduce, out of place) whose results are divided and copied back into p.grad
# hint:
import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol


def average_gradients(model):
    n = dist.get_world_size()
    pending = []
    for p in model.parameters():
        if p.grad is not None:
            pending.append((p, funcol.all_reduce(p.grad, "sum", dist.group.WORLD)))
    with torch.no_grad():
        for p, summed in pending:
            p.grad.copy_(funcol.wait_tensor(summed) / n)


answer = average_gradients
