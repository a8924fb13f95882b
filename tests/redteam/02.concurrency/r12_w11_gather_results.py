# expect: fail copies y @ y onto x @ x's device before returning, a transfer instead of leaving each result where its lane left it
# hint: result.{0,40}(\.to\(|mov|cop|transfer|device)|(mov|cop|transfer)\w*.{0,40}result|gather|where the lanes? left
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1], returned side by side."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx = fx.result()
    yy = fy.result().to(xx.device)  # return both results on one device
    return xx, yy
