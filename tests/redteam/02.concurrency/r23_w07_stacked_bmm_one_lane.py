# expect: fail batches x and y into one torch.bmm on lanes[0] (chapter 2.11: one batched call beats many small ones): lanes[1] does nothing, so nothing runs concurrently, and stacking fails when x and y differ in shape or device
# hint: stack|bmm|batch|one lane|lanes\[1\]|second lane|same lane|shape|device
import torch


def _both_squares(xy):
    return torch.bmm(xy, xy)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    xy = torch.stack([x, y])  # one batched product instead of two
    xxyy = lanes[0].submit(_both_squares, xy).result()
    return xxyy[0], xxyy[1]


answer = run_concurrently
