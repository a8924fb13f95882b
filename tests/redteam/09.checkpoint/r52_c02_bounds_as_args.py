# expect: pass a while loop with divmod sizes (tensor_split's), the bounds passed to checkpoint as arguments of one closure; last segment unchecked
# hint:
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    def run(h, start, stop):  # reads only its arguments and `blocks`, never a loop variable
        for i in range(start, stop):
            h = blocks[i](h)
        return h

    n = len(blocks)
    base, extra = divmod(n, segments)
    h, start, k = x, 0, 0
    while start < n:
        stop = start + base + (1 if k < extra else 0)
        if stop >= n:  # the last segment: backward would recompute it at once
            h = run(h, start, stop)
        else:
            h = checkpoint(run, h, start, stop, use_reentrant=False)
        start, k = stop, k + 1
    return h


answer = checkpointed_forward
