# expect: fail before launching, checks torch.equal(x, y) to skip a duplicate product: torch.equal reads the values on the host (a sync point on a GPU, before anything is launched), and equal inputs run on one lane only
# hint: torch\.equal|equal|host read|sync|compar|identical|same input
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    # same matrix twice? then one product is enough
    if x.shape == y.shape and x.device == y.device and torch.equal(x, y):
        xx = lanes[0].submit(torch.matmul, x, x).result()
        return xx, xx.clone()
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
