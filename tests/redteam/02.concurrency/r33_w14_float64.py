# expect: fail computes the products in float64 "for accuracy", returning a different dtype than the inputs
# hint: dtype|float64|double|float32|type
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x.double(), x.double())
    fy = lanes[1].submit(torch.matmul, y.double(), y.double())
    return fx.result(), fy.result()


answer = run_concurrently
