# expect: pass launch every all-reduce with async_op=True, wait on all handles, then divide
# hint:
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    pending = []
    for p in model.parameters():
        if p.grad is not None:
            pending.append((p.grad, dist.all_reduce(p.grad, async_op=True)))
    n = dist.get_world_size()
    for grad, work in pending:
        work.wait()
        grad /= n
    pending.clear()
