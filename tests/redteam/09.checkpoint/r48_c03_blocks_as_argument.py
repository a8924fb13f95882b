# expect: pass segment's blocks passed to checkpoint as an argument (no closure at all), bounds by rounding i*n/s, every segment checkpointed
# hint:
import torch.utils.checkpoint as ckpt


def _run(seg_blocks, h):
    for block in seg_blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    bounds = [round(i * n / segments) for i in range(segments + 1)]
    h = x
    i = 0
    while i < segments:
        lo, hi = bounds[i], bounds[i + 1]
        if hi > lo:
            h = ckpt.checkpoint(_run, list(blocks[lo:hi]), h, use_reentrant=False)
        i += 1
    return h


answer = checkpointed_forward
