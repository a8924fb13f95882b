# expect: fail calls torch.cuda.synchronize() (when the input is a GPU tensor) between the two launches, serializing them
# hint: synchroni[sz]e|sequence|one after the other|wait|before launching
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    if torch.cuda.is_available():
        torch.cuda.synchronize()  # make sure the first product is queued properly
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
