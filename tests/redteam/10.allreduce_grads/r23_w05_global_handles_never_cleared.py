# expect: fail keeps the async handles (and with them every gradient) in a module-level list that is never cleared: each call waits again on every handle of every earlier step, and the list and the tensors it holds grow without end
# hint: clear|grow|list|handles|global|module|leak|kept|earlier steps|between (calls|steps)
import torch.distributed as dist

_works = []  # the handles of the all-reduces in flight


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            p.grad.div_(world)  # divide first: the sum of the shares is the average
            _works.append(dist.all_reduce(p.grad, async_op=True))
    for w in _works:
        w.wait()
