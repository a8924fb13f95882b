# expect: fail keeps every call's futures in a module-level list "for debugging": the results of all earlier calls stay alive, memory grows with each call
# hint: grow|leak|global|module|history|keep|reference|state|memory|every call
import torch

_history = []


def run_concurrently(x, y, lanes):
    futures = (lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y))
    _history.append(futures)
    return tuple(f.result() for f in futures)


answer = run_concurrently
