# expect: fail remembers on each parameter the grad tensor it already averaged and skips it when it sees the same object again: after zero_grad(set_to_none=False) backward writes into that same tensor, so from then on the gradients are never averaged (right only when grads are re-created every step)
# hint: set_to_none|zero_grad|same (tensor|object)|already|skip|remember|kept|cache|state|between (calls|steps)
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        g = p.grad
        if g is None:
            continue
        # do not average the same gradient twice (a shared weight, or a second call)
        if getattr(p, "_averaged_grad", None) is g:
            continue
        dist.all_reduce(g)
        g /= world
        p._averaged_grad = g
