# expect: fail swaps the lanes: x @ x goes to lanes[1] and y @ y to lanes[0], each product away from its input's device
# hint: swap|revers|wrong lane|lanes? (are )?(indexed|order|mixed)|x ?@ ?x.{0,40}lanes\[1\]|y ?@ ?y.{0,40}lanes\[0\]|lanes\[1\].{0,40}x ?@ ?x|lanes\[0\].{0,40}y ?@ ?y
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on two lanes at the same time."""
    first, second = lanes[-1], lanes[0]
    fx = first.submit(torch.matmul, x, x)
    fy = second.submit(torch.matmul, y, y)
    return fx.result(), fy.result()
