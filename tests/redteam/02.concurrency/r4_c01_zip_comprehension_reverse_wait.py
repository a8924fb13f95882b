# expect: pass
# hint: 
import torch
def answer(x, y, lanes):
    futures = [lane.submit(torch.matmul, t, t) for lane, t in zip(lanes[:2], (x, y))]
    yy = futures[1].result()
    xx = futures[0].result()
    return xx, yy
