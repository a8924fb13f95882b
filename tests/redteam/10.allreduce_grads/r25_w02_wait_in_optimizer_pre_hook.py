# expect: fail launches async all-reduces and returns; the wait and the division are deferred to a global optimizer step pre-hook, so p.grad is not the average when the function returns (only opt.step sees it)
# hint: (optimi[sz]er|opt\.step|step).{0,60}(hook|later|defer)|(defer|later|after).{0,40}(return|step)|not (yet )?(the )?averag\w* when|when .{0,30}returns?|before (it|the function) returns|never waited on before your function returned
# name: average_gradients
import torch.distributed as dist
from torch.optim.optimizer import register_optimizer_step_pre_hook

_pending = []  # (handle, grad) launched by average_gradients, finished before the next opt.step()
_hooked = []


def _finish_before_step(optimizer, args, kwargs):
    world = dist.get_world_size()
    while _pending:
        handle, grad = _pending.pop(0)
        handle.wait()
        grad.div_(world)


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    if not _hooked:  # the communication overlaps whatever runs between here and opt.step()
        _hooked.append(register_optimizer_step_pre_hook(_finish_before_step))
    for p in model.parameters():
        if p.grad is not None:
            _pending.append((dist.all_reduce(p.grad, async_op=True), p.grad))
