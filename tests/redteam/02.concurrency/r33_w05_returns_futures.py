# expect: fail returns the futures themselves instead of the result tensors
# hint: future|result|tensor
import torch


def run_concurrently(x, y, lanes):
    return lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)


answer = run_concurrently
