# expect: fail calls torch.set_num_threads(os.cpu_count()) so the lanes' products use every core, and leaves the process's thread count changed
# hint: thread|num_threads|setting|restor|put back|changed
import os

import torch


def run_concurrently(x, y, lanes):
    torch.set_num_threads(os.cpu_count() or 2)  # the notebook pinned one thread: use them all
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
