# expect: fail waits with `any(h.wait() for h in handles)`: wait() returns True, so any() stops after the first handle and the rest are never waited on; the division races the all-reduces still running
# hint: any\(|short.?circuit|(only|just) (the )?first|first (handle|wait)|stops? after|(not|never|without)\b.{0,40}wait|wait.{0,40}(never|not)\b|race
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handles = [dist.all_reduce(g, async_op=True) for g in grads]
    if grads and not any(h.wait() for h in handles):  # wait() is False if a collective was aborted
        raise RuntimeError("an all-reduce was aborted")
    n = dist.get_world_size()
    for g in grads:
        g.div_(n)
