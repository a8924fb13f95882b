# expect: fail map() is lazy: chaining map(submit) into map(result) submits the second product only after the first result is in
# hint: sequen|one after the other|serial|in turn|wait(ed|s)? (for )?(the first|before)|before launching|launch both|both in flight|concurren|overlap|lazy
import torch


def _submit(lane, t):
    return lane.submit(torch.matmul, t, t)


def run_concurrently(x, y, lanes):
    futures = map(_submit, lanes[:2], (x, y))  # "launch both" -- but nothing runs yet
    return list(map(lambda f: f.result(), futures))


answer = run_concurrently
