# expect: pass at most two all-reduces in flight (a deque as a sliding window), each retired through handle.get_future().wait() then divided; names imported from torch.distributed
# hint:
# name: average_gradients
from collections import deque

from torch.distributed import all_reduce, get_world_size


def average_gradients(model, in_flight=2):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    n = get_world_size()
    window = deque()

    def retire():
        handle, grad = window.popleft()
        handle.get_future().wait()
        grad.div_(n)

    for p in model.parameters():
        if p.grad is None:
            continue
        window.append((all_reduce(p.grad, async_op=True), p.grad))
        if len(window) > in_flight:
            retire()
    while window:
        retire()
