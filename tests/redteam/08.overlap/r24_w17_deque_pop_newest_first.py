# expect: fail all copies are queued up front into a deque, but each compute takes the newest with pop() instead of popleft(): batches are computed and returned last first (right for one batch only)
# hint: order|reversed?|last first|pop\(\)|popleft|newest|in order
import collections

import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    waiting = collections.deque()
    with torch.cuda.stream(copy_stream):
        for b in batches:
            x = b.to(device, non_blocking=True)
            waiting.append((x, copy_stream.record_event()))
    results = []
    while waiting:
        x, ev = waiting.pop()
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
