# expect: fail Waits for the first lane's result before submitting the second product, so the two products run one after the other, not concurrently.
# hint: wait|result|before|launch both|sequen|one after
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    xx = lanes[0].submit(torch.matmul, x, x).result()
    yy = lanes[1].submit(torch.matmul, y, y).result()
    return xx, yy
