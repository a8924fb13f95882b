# expect: fail all-reduces one flat copy of the gradients but "writes back" with `g = chunk.view_as(g)`, which only rebinds a loop variable, so p.grad is never updated
# hint: copy|written back|write.*back|flat|cat|bucket|rebind|assign|view_as|p\.grad.*(unchanged|not (updated|changed|modified))
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.reshape(-1) for g in grads])  # one bucket, one all-reduce
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    for g, chunk in zip(grads, flat.split([g.numel() for g in grads])):
        g = chunk.view_as(g)
