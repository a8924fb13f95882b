# expect: fail launches every all-reduce async but waits only on the last handle before dividing
# hint: wait|sync|synchron|handle|async
import torch.distributed as dist


def answer(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handle = None
    for g in grads:
        handle = dist.all_reduce(g, async_op=True)
    if handle is not None:
        handle.wait()  # the last one launched finishes last, so the others are done too
    world = dist.get_world_size()
    for g in grads:
        g.div_(world)
