# expect: fail to spare the lanes' record_stream worry, appends every call's inputs to a module-level list "until the lanes are done" and never empties it: each call keeps its x and y (and their device memory) alive for the rest of the program, memory that grows with every call
# hint: kept|keep|alive|leak|memory|referenc|global|module.level|across calls|grow|never (freed|released|cleared)
import torch

_in_use = []  # inputs a lane may still read


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    _in_use.append((x, y))  # nobody frees them while a lane reads them
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
