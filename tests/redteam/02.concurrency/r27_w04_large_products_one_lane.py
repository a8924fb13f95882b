# expect: fail reads the chapter's "a large product fills every SM" as a rule and, for products with sides of 4096 or more, runs both one after the other on lanes[0]: on two GPUs (or two CPU threads) large products are exactly where two lanes halve the time; small inputs, as a quick test uses, run concurrently as asked
# hint: (one|same|single|first) lane|lanes\[0\]|in sequence|sequential|one after|serial|large|size|threshold|waited? (for|before)
# open: no case's products have sides of 4096 or more (on a CPU each would take seconds): below its threshold this answer launches both products on their own lanes, as a right one does
import torch

_LARGE = 4096  # from this side on one product fills a GPU's SMs (chapter 2, section 2.12)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    if max(x.shape[-1], y.shape[-1]) >= _LARGE:
        # a second lane cannot help a product that already fills the device
        xx = lanes[0].submit(torch.matmul, x, x).result()
        yy = lanes[0].submit(torch.matmul, y, y).result()
        return xx, yy
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
