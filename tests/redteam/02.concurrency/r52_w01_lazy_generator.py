# expect: fail submits from a generator expression, consumed while waiting: y @ y is only submitted after x @ x's result() returns
# hint: sequen|one after|before launch|order|both in flight|concurren|wait
import torch


def run_concurrently(x, y, lanes):
    pending = (lane.submit(torch.matmul, t, t) for lane, t in zip(lanes, (x, y)))  # lazy!
    return tuple(future.result() for future in pending)


answer = run_concurrently
