# expect: fail checks each result against a product computed again on the caller with torch.allclose: twice the work, in sequence, and a host read (bool) of device values
# hint: allclose|bool|host|read|transfer|sync|extra|again|twice|recomput|caller|sequen
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    if not (torch.allclose(xx, x @ x, rtol=1e-4, atol=1e-3) and torch.allclose(yy, y @ y, rtol=1e-4, atol=1e-3)):
        raise RuntimeError("a lane returned a wrong product")
    return xx, yy


answer = run_concurrently
