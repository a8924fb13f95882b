# expect: fail .result() is chained onto submit() inside one comprehension: the second product is launched after the first has finished
# hint: sequen|one after the other|serial|in turn|wait(ed|s)? (for )?(the first|before)|before launching|launch both|both in flight|concurren|overlap
import torch


def run_concurrently(x, y, lanes):
    return [lane.submit(torch.matmul, t, t).result() for lane, t in zip(lanes, (x, y))]


answer = run_concurrently
