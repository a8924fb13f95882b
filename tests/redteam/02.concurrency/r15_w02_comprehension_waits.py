# expect: fail one comprehension submits and calls .result() per lane, so the first is waited for before the second is launched
# hint: sequen|one after|in turn|before (launch|submit)|(launch|submit)\w* .{0,40}after|overlap|both in flight|in flight at once|at the same time|wait\w* .{0,40}(first|before)
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    return tuple(lane.submit(torch.matmul, m, m).result() for lane, m in zip(lanes, (x, y)))


answer = run_concurrently
