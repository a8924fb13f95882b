# expect: fail waits for the first result before launching the second, so the products run one after the other
# hint: sequence|one after the other|wait|launch both|before launching|concurren|overlap
import torch


def run_concurrently(x, y, lanes):
    xx = lanes[0].submit(torch.matmul, x, x).result()
    yy = lanes[1].submit(torch.matmul, y, y).result()
    return xx, yy


answer = run_concurrently
