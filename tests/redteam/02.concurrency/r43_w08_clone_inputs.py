# expect: pass clones both inputs twice before submitting (judged right, as r21_c05: the prompt counts transfers, not a copy on the inputs' own device, n^2 against the products' n^3)
# hint: 
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x.clone(), x.clone())
    fy = lanes[1].submit(torch.matmul, y.clone(), y.clone())
    return fx.result(), fy.result()
