# expect: fail launches pre-divided async all-reduces and keeps the handles in a module global, waiting on them only at the start of the next call (to overlap with the optimizer step): when it returns, p.grad may still be this rank's own share, and the last step's all-reduces are never waited on
# hint: wait|not (yet )?(complete|finished|done)|next call|global|pending|before (it )?returns?|after (it )?returns?|async
import torch.distributed as dist

_pending = []


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    while _pending:  # the previous step's all-reduces have had the whole optimizer step to finish
        _pending.pop().wait()
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        p.grad.div_(world)
        _pending.append(dist.all_reduce(p.grad, async_op=True))


answer = average_gradients
