# expect: fail copies both results back to the CPU (.cpu()) before returning
# hint: cpu|host|copy|device|\.to\(|transfer
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result().cpu(), fy.result().cpu()
