# expect: pass sizes counted by residue (len(range(i, n, segments)): tensor_split's 4, 3, 3), closures from a factory, nn.Sequential per segment, last segment unchecked
# hint:
from torch import nn
from torch.utils.checkpoint import checkpoint


def _make_segment(mods):
    seq = nn.Sequential(*mods)  # a new container of the caller's blocks, not copies

    def run(h):
        return seq(h)

    return run


def _sizes(n, segments):
    # segment i gets one block for each of i, i + segments, i + 2 segments, ... below n:
    # sizes that differ by at most one, the larger first
    return [len(range(i, n, segments)) for i in range(segments)]


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    mods = list(blocks)
    runs, start = [], 0
    for size in _sizes(len(mods), segments):
        runs.append(_make_segment(mods[start : start + size]))
        start += size
    h = x
    for i, run in enumerate(runs):
        last = i == len(runs) - 1
        h = run(h) if last else checkpoint(run, h, use_reentrant=False)
    return h


answer = checkpointed_forward
