# expect: fail moves y to x's device before submitting, a transfer that also puts both products on one device
# hint: input.{0,40}(mov|cop|transfer|device)|(mov|cop|transfer)\w*.{0,40}input|operand.{0,40}(mov|cop|device)|\by\b (was |is )?(mov|cop|transfer)|(mov|cop|transfer)\w* y\b|y\.to\(
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    y = y.to(x.device)  # keep both operands on one device, like any model's inputs
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()
