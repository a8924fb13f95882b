# expect: pass boundaries i * n // segments (sizes differing by at most one), a lambda that binds its blocks through a default argument, and the last segment run plainly as checkpoint_sequential does
# hint: 
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    n = len(blocks)
    bounds = [i * n // segments for i in range(segments + 1)]
    h = x
    for s, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:])):
        mods = [blocks[j] for j in range(lo, hi)]

        def run(t, mods=mods):  # the default argument binds this segment's blocks now
            for m in mods:
                t = m(t)
            return t

        if s == segments - 1:
            h = run(h)  # backward would recompute it at once: keep it
        else:
            h = checkpoint(run, h, use_reentrant=False)
    return h
