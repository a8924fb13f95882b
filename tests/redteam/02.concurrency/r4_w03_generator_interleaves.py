# expect: fail the futures come from a generator expression, so each is submitted only when the loop that waits reaches it: sequential
# hint: sequence|one after the other|before launching|wait.*before|launch both|in flight
import torch
def answer(x, y, lanes):
    futures = (lane.submit(torch.matmul, t, t) for lane, t in zip(lanes, (x, y)))
    return tuple(f.result() for f in futures)
