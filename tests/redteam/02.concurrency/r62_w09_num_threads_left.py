# expect: fail sets torch.set_num_threads(1) so that each lane uses one core, and never puts the thread count back: a process-wide setting changed and left
# hint: thread|num_threads|set_num_threads|process-wide|setting|changed|restore|put back|left
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    torch.set_num_threads(1)  # one core per lane, so the two lanes do not fight over cores
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
