# expect: pass
# hint:
import torch
def answer(x, y, lanes):
    first, second = lanes[:2]
    pending = list(map(lambda pair: pair[0].submit(torch.mm, pair[1], pair[1]), zip((first, second), (x, y))))
    done = [f.result() for f in reversed(pending)]
    return done[1], done[0]
