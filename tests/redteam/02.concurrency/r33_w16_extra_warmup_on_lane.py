# expect: fail "warms up" each lane with an extra product and waits for it, doing work outside what is asked (and syncing before the launches)
# hint: extra|warm|twice|more than|sequence|wait|submit|launch|one after
import torch


def run_concurrently(x, y, lanes):
    for lane, m in zip(lanes, (x, y)):
        lane.submit(torch.matmul, m, m).result()  # warm-up: the first call pays one-off costs
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
