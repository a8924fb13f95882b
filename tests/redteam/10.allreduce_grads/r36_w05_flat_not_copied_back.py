# expect: fail reduces a torch.cat flat buffer (a copy) and never copies the averages back into p.grad
# hint: (copy|back|cat|flat|buffer|unchanged|not.*(written|averag)|local gradient)
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.view(-1) for g in grads])  # one big all-reduce instead of many small ones
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
