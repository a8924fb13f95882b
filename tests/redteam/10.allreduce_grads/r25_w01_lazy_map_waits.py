# expect: fail launches every all-reduce with async_op=True and "waits" with map(), which is lazy and never calls wait(), so the division races the sums
# hint: map\(|lazy|never (call|run|ran|execut|evaluat)|(not|never|without)\b.{0,40}wait|wait.{0,40}(never|not)\b|race
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handles = [dist.all_reduce(g, async_op=True) for g in grads]  # all in flight at once
    map(lambda h: h.wait(), handles)  # wait for every one of them
    for g in grads:
        g.div_(world)
