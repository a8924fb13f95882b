# expect: fail submits each product twice, a "warm-up" launch left unawaited and then the real one: values right and both in flight, but every lane does its product twice (four launches, twice the work)
# hint: twice|warm.?up|extra (launch|submit|product|work)|duplicat|double|four|more than (one|two)|launches
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    # warm-up launch on each lane (first call pays cuBLAS set-up), not waited for
    for lane, t in zip(lanes[:2], (x, y)):
        lane.submit(torch.matmul, t, t)
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
