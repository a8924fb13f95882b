# expect: pass sizes from divmod (the first remainder segments one block longer), a closure factory per segment, last segment run without a checkpoint
# hint:
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint


def _make_segment(mods):
    """A function bound to these modules now, not to a loop variable."""

    def run(h):
        for m in mods:
            h = m(h)
        return h

    return run


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    if n == 0:
        return x
    s = min(segments, n)
    q, r = divmod(n, s)
    bounds = [0]
    for k in range(s):
        bounds.append(bounds[-1] + q + (1 if k < r else 0))
    h = x
    for k in range(s):
        run = _make_segment(tuple(blocks[i] for i in range(bounds[k], bounds[k + 1])))
        if k == s - 1:
            h = run(h)  # backward would recompute it at once: keep it plain
        else:
            h = checkpoint(run, h, use_reentrant=False, preserve_rng_state=True)
    return h
