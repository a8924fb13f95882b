# expect: fail x and y stacked into one batched product on lanes[0] when they match: y @ y never runs on lanes[1]
# hint: lanes\[1\]|second lane|one lane|batch|stack|bmm|both (products )?on (one|the same|lanes\[0\])|not (on|in) two
# Wrong: the chapter's "batch rather than hope for streams" applied against the prompt, which asks
# for x @ x on lanes[0] and y @ y on lanes[1]; it only falls back to two lanes when shapes differ.

import torch


def answer(x, y, lanes):
    """(x @ x, y @ y): one batched product where possible, else one per lane."""
    if x.shape == y.shape and x.device == y.device and x.dtype == y.dtype:
        both = torch.stack((x, y))
        fut = lanes[0].submit(torch.bmm, both, both)
        xx, yy = fut.result().unbind(0)
        return xx, yy
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()
