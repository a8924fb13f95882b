# expect: fail the function given to each lane synchronizes its device before returning "so the value is ready": a CudaLane runs it at submit, so submit blocks and the products run in turn
# hint: synchron|sync|wait|inside|one after the other|sequen|serial|in turn|blocks?|concurren|overlap
import torch


def _square_ready(t):
    out = t @ t
    if out.is_cuda:
        torch.cuda.synchronize(out.device)  # the value is final when this returns
    return out


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(_square_ready, x)
    fy = lanes[1].submit(_square_ready, y)
    return fx.result(), fy.result()


answer = run_concurrently
