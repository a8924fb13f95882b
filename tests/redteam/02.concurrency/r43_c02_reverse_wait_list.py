# expect: pass Submits both products (torch.mm, 2-D inputs), then waits for the second before the first and returns a list [x @ x, y @ y].
# hint: 
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    first, second = lanes[0], lanes[1]
    pending_x = first.submit(torch.mm, x, x)
    pending_y = second.submit(torch.mm, y, y)
    yy = pending_y.result()  # the order of the waits does not matter once both are launched
    xx = pending_x.result()
    return [xx, yy]
