# expect: pass
# hint: 
import torch.utils.checkpoint as cp
def answer(blocks, x, segments):
    """Sizes from divmod (the larger ones first, as tensor_split), a closure that binds its
    bounds through default arguments, every segment checkpointed."""
    q, r = divmod(len(blocks), segments)
    sizes = [q + 1] * r + [q] * (segments - r)
    h, start = x, 0
    for size in sizes:
        end = start + size
        def segment(h, start=start, end=end):
            for k in range(start, end):
                h = blocks[k](h)
            return h
        h = cp.checkpoint(segment, h, use_reentrant=False)
        start = end
    return h
