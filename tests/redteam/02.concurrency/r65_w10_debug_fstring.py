# expect: pass logger.debug(f"...{xx.norm():.3g}") formats the f-string on every call even with debug off: host reads of both results: written as a wrong answer, judged right: as r27_w07 and r6_c05, reads of values made after both results are allowed: the prompt counts copies of the products back to the host
# hint:
# Wrong: the f-string is built before logger.debug() checks the level, so each call reads two norms
# back to the host: transfers the prompt says the checker counts, hidden in a "free" debug line.

import logging

import torch

log = logging.getLogger(__name__)


def answer(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    log.debug(f"run_concurrently: |x@x| = {xx.norm():.3g}, |y@y| = {yy.norm():.3g}")
    return xx, yy
