# expect: fail sets torch.set_num_threads(2) "so both products get a core" and never puts the thread count back
# hint: thread|set_num_threads|setting|restore|put back|changed|process
import torch


def run_concurrently(x, y, lanes):
    torch.set_num_threads(2)
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
