# expect: fail world size read at the first call and kept on the function: stale once the process group changes
# hint: world.?size|ranks|/ ?2|written in|cache|stale|average|differ
# open: each world size runs in ranks of their own, new processes, so a world size read once per process is always the one of its group; only a process that joins a second group of another size would show it
import torch.distributed as dist


def answer(model):
    if not hasattr(answer, "world"):  # it never changes during a run: ask once
        answer.world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= answer.world
