# expect: pass closure factory binding each segment's blocks, divmod sizes (larger ones first), all segments checkpointed
# hint:
# name: checkpointed_forward
import torch.utils.checkpoint as ckpt


def _segment_fn(chosen):
    chosen = tuple(chosen)

    def run(h):
        for block in chosen:
            h = block(h)
        return h

    return run


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    base, extra = divmod(n, segments)
    start = 0
    h = x
    for s in range(segments):
        size = base + (1 if s < extra else 0)
        if size == 0:
            continue
        h = ckpt.checkpoint(
            _segment_fn(blocks[start : start + size]), h, use_reentrant=False, preserve_rng_state=True
        )
        start += size
    return h
