# expect: fail launches the all-reduces with async_op=True and divides the gradients before waiting, racing with the transfer
# hint: wait|async|race|in flight|handle|before .*(done|finish|complet)
# Wrong: the division runs while gloo may still be reading or writing p.grad: depending on the
# timing a rank sends its gradient halved or not, or the sum lands after the division, so the
# values are right only when the race happens to go one way. The handles are waited on, but too late.
import torch
import torch.distributed as dist


@torch.no_grad()
def answer(model):
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handles = [dist.all_reduce(g, async_op=True) for g in grads]
    for g in grads:  # overlap the divisions with the communication
        g /= world
    for h in handles:
        h.wait()
