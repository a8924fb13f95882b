# expect: fail calls torch.set_num_threads(1) to leave the cores to gloo and never puts the thread count back
# hint: thread|set_num_threads|process.?wide|global (setting|state)|put back|restore|changed
# Wrong: the exercises' rule: put back any process-wide setting you change (the thread count
# first among them). After this call every op of the caller's process runs on one thread.
import torch
import torch.distributed as dist


@torch.no_grad()
def answer(model):
    torch.set_num_threads(1)  # gloo's threads and ours share the cores (chapter 10.4)
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
