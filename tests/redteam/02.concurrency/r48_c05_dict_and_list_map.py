# expect: pass an eager list(map(...)) of submits keyed in a dict by name, torch.matmul as the work, results read out of the dict in order
# hint:
import torch


def run_concurrently(x, y, lanes):
    names = ("xx", "yy")
    futures = dict(zip(names, list(map(lambda lane, t: lane.submit(torch.matmul, t, t), lanes[:2], (x, y)))))
    done = {name: f.result() for name, f in futures.items()}
    return done["xx"], done["yy"]


answer = run_concurrently
