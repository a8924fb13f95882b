# expect: pass a list of the two products (relabelled: the prompt says a list works too)
# hint: 
import torch


def run_concurrently(x, y, lanes):
    fs = [lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)]
    return [f.result() for f in fs]


answer = run_concurrently
