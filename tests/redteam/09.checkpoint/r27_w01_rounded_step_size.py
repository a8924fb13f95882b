# expect: fail cuts the blocks in steps of round(len(blocks) / segments): round() goes down below .5 and halves go to even, so 10 blocks in 3 (3.33 -> 3) or 10 in 4 (2.5 -> 2) and 9 in 4 (2.25 -> 2) give steps too short and one or two segments more than asked; it is right only where the division is exact or rounds up
# hint: (too many|more|extra|\d+ instead of \d+|expected \d+) (checkpointed )?segments|segments?.{0,40}(count|number|expected|instead|exactly)|round|where \d+ were asked
# name: checkpointed_forward
import functools

from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    step = max(1, round(n / segments))  # nearest whole number of blocks per segment
    h = x
    for start in range(0, n, step):
        seg = functools.partial(_run, blocks[start : start + step])
        h = checkpoint(seg, h, use_reentrant=False)
    return h
