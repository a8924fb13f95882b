# expect: fail launches every all-reduce async, then divides each grad in place before waiting for its all-reduce: the division races with gloo/NCCL reading and writing the same buffer, so a rank can send g or g/n and divide the sum or not, depending on timing
# hint: race|wait|before|async|in flight|in-flight|concurren|timing|order|summed, not averaged|after the all_reduce
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    works = [dist.all_reduce(g, async_op=True) for g in grads]  # all in flight at once
    for g in grads:
        g.div_(world)  # sum(g / n) == sum(g) / n, so the order does not matter
    for w in works:
        w.wait()
