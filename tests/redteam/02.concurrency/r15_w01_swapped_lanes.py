# expect: fail x @ x sent to lanes[1] and y @ y to lanes[0] (lanes swapped; values still right)
# hint: swap|revers|wrong lane|other lane|which lane|x ?@ ?x.{0,60}lanes?\W*[01]|lanes?\W*[01].{0,60}x ?@ ?x|y ?@ ?y.{0,60}lanes?\W*[01]|lanes?\W*[01].{0,60}y ?@ ?y
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on two lanes at the same time."""
    second, first = lanes[0], lanes[1]  # "the second product goes on the first lane"
    fy = second.submit(torch.matmul, y, y)
    fx = first.submit(torch.matmul, x, x)
    return fx.result(), fy.result()


answer = run_concurrently
