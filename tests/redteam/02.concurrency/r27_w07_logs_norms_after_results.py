# expect: pass (judged right: the norms are read after both results, which the checker's own words allow ("read values, if you must, after both results"); the prompt counts copies of the products back to the host, and these are reads of new scalars; written as: after waiting for both, logs the products' norms with print(f"... {xx.norm():.3g}"): two more kernels and two host reads of device values (a transfer and a sync each on a GPU), every call, which the exercise does not ask for and the checker counts)
# hint: 
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    print(f"|x @ x| = {xx.norm():.3g}, |y @ y| = {yy.norm():.3g}")  # sanity log
    return xx, yy


answer = run_concurrently
