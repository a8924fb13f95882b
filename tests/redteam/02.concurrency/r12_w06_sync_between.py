# expect: fail calls torch.cuda.synchronize() between the two submissions, so the first product finishes before the second starts
# hint: synchroni[sz]\w*.{0,80}(between|before|after (launch|submitt)\w* the first)|(between|before).{0,60}synchroni[sz]|sync(hroni[sz]ation)? point.{0,40}(between|before)
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1]."""
    fx = lanes[0].submit(torch.matmul, x, x)
    if torch.cuda.is_available():
        torch.cuda.synchronize()  # make sure the first launch is through before switching lane
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()
