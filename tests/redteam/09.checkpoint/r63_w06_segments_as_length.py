# expect: fail treats `segments` as the number of blocks per segment: 16 in 4 is right by chance, 10 in 3 gives 4 segments (3, 3, 3, 1), 12 in 2 gives 6
# hint: (number of|how many|count of|exactly|expected \d+) .{0,20}segments|too many segments|segments?.{0,20}(size|length|per segment)|\b(4|5|6|four|five|six) segments|recomput\w* \d+\b(?! blocks)
# Wrong: cuts segments of `segments` blocks rather than `segments` segments; the two coincide
# when len(blocks) == segments ** 2, as in the notebook's 16 blocks in 4.
import functools

from torch.utils.checkpoint import checkpoint


def _plain(mods, h):
    for m in mods:
        h = m(h)
    return h


def answer(blocks, x, segments):
    h = x
    for start in range(0, len(blocks), segments):
        seg = functools.partial(_plain, blocks[start : start + segments])
        h = checkpoint(seg, h, use_reentrant=False)
    return h
