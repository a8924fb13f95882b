# expect: fail packs the gradients into one flat tensor, all-reduces and divides it, but never copies the averages back into p.grad, so the gradients stay local.
# hint: copy|back|p\.grad|flat|unchanged|local|average
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.reshape(-1) for g in grads])  # one all-reduce, like a DDP bucket
    dist.all_reduce(flat)
    flat /= dist.get_world_size()


answer = average_gradients
