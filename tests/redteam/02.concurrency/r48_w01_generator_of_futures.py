# expect: fail the futures come from a generator expression, consumed lazily by the result loop: each product is launched only after the previous one is waited for
# hint: sequen|one after the other|serial|in turn|wait(ed|s)? (for )?(the first|before)|before launching|launch both|both in flight|concurren|overlap
import torch


def run_concurrently(x, y, lanes):
    futures = (lane.submit(torch.matmul, t, t) for lane, t in zip(lanes, (x, y)))  # lazy!
    return tuple(f.result() for f in futures)  # submit 0, wait 0, submit 1, wait 1


answer = run_concurrently
