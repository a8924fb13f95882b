# expect: fail The function given to each lane calls torch.cuda.synchronize() after its product when it is on a GPU; a CudaLane runs the function in submit(), so the first submit blocks until x @ x is done and the products run in sequence (on CPU lanes the branch never runs, so it looks fine there).
# hint: synchronize|sync|inside|function given|one after|wait
# name: run_concurrently
import torch


def _square(m):
    out = m @ m
    if out.is_cuda:
        torch.cuda.synchronize(out.device)  # "make sure the product is finished"
    return out


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(_square, x)
    fy = lanes[1].submit(_square, y)
    return fx.result(), fy.result()
