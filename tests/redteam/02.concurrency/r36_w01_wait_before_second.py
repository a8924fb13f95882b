# expect: fail waits for the first result before submitting the second: the two products run one after the other
# hint: sequen|one after|in flight|before launching|before submit|wait.*first|concurren|at once|order
import torch


def run_concurrently(x, y, lanes):
    xx = lanes[0].submit(torch.matmul, x, x).result()
    yy = lanes[1].submit(torch.matmul, y, y).result()
    return xx, yy


answer = run_concurrently
