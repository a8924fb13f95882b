# expect: pass launch both through a loop over zip(lanes, inputs), then collect the results as a list
# hint:
import torch


def run_concurrently(x, y, lanes):
    futures = [lane.submit(torch.matmul, m, m) for lane, m in zip(lanes[:2], (x, y))]
    return [f.result() for f in futures]  # both in flight before the first wait


answer = run_concurrently
