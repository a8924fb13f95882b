# expect: fail logs the averaged gradient norm of every call by concatenating it onto a tensor kept on the function: the tensor gets one element longer per call (and each call copies it), so the kept state grows with the run.
# hint: (grow|grows|growing|history|cat|concat|append|each call|every call|log|norm|unbounded|leak)
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    for g in grads:
        dist.all_reduce(g)
        g.div_(world)
    if grads:
        norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g.float()) for g in grads]))
        average_gradients.norms = torch.cat([average_gradients.norms, norm.reshape(1)])


average_gradients.norms = torch.empty(0)  # one entry per step, for the loss curves
