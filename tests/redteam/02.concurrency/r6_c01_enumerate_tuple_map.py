# expect: pass
# hint:
import torch
def answer(x, y, lanes):
    futures = [lanes[i].submit(torch.matmul, t, t) for i, t in enumerate((x, y))]
    return tuple(map(lambda f: f.result(), futures))
