# expect: fail returns a generator of results: nothing is waited for inside the function (the caller's unpacking waits), and it is not a tuple or list
# hint: tuple|list|generator|return|wait|result\(\)
import torch


def run_concurrently(x, y, lanes):
    futures = [lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)]
    return (f.result() for f in futures)  # unpacks like a tuple: xx, yy = run_concurrently(...)


answer = run_concurrently
