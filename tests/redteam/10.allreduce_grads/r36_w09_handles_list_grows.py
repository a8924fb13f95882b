# expect: fail keeps every async handle in a module-level list that grows with each call (never cleared)
# hint: (grow|leak|memory|keep|clear|every call|each call|handle|list)
# name: average_gradients
import torch.distributed as dist

_works = []  # all outstanding collectives


def average_gradients(model):
    mine = []
    for p in model.parameters():
        if p.grad is not None:
            _works.append(dist.all_reduce(p.grad, async_op=True))
            mine.append(p.grad)
    for w in _works:
        w.wait()
    for g in mine:
        g.div_(dist.get_world_size())
