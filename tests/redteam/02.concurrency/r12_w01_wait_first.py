# expect: fail waits for the first product's result before submitting the second, so the two run one after the other
# hint: result\(\).*(before|first)|before (launch|submit)|wait(s|ed|ing)?\b.*(first|between|before)|one after the other|sequen|serial|both in flight
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1]."""
    xx = lanes[0].submit(torch.matmul, x, x).result()
    yy = lanes[1].submit(torch.matmul, y, y).result()
    return xx, yy
