# expect: fail the function given to each lane synchronizes the GPU after its product (guarded by is_cuda, so nothing happens on CPU tensors): submit does not return until the work is done, so the two products run one after the other
# hint: synchroni[sz]|inside|within|sequen|one after|serial|wait|blocks?|not (concurrent|overlap|in flight)|in flight
import torch


def _square(t):
    out = t @ t
    if out.is_cuda:  # make sure the product has really finished before handing it back
        torch.cuda.synchronize(out.device)
    return out


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_square, x)
    fy = lanes[1].submit(_square, y)
    return fx.result(), fy.result()


answer = run_concurrently
