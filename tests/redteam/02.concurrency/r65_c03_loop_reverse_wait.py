# expect: pass
# hint:
# Right: a loop launches one product per lane (x on lanes[0], y on lanes[1]); the waits come after
# every launch, in reverse order, and the result is a list, which the prompt allows.

import torch


def answer(x, y, lanes):
    futures = [lane.submit(torch.mm, m, m) for lane, m in zip(lanes[:2], (x, y), strict=True)]
    results = [None, None]
    for i in reversed(range(2)):  # the order of the waits does not matter once both are launched
        results[i] = futures[i].result()
    return results
