# expect: pass clones x and y in the caller before submitting (relabelled: the prompt forbids no copy on the inputs' own device, a clone costs n^2 against the products' n^3, as r16's clone in the lane; only transfers are counted)
# hint: 
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    xc, yc = x.clone(), y.clone()  # private inputs for each lane
    fx = lanes[0].submit(torch.matmul, xc, xc)
    fy = lanes[1].submit(torch.matmul, yc, yc)
    return fx.result(), fy.result()


answer = run_concurrently
