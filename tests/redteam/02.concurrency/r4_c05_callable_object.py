# expect: pass
# hint: 
import torch
class Concurrent:
    def __init__(self, op=torch.matmul):
        self.op = op
    def __call__(self, x, y, lanes):
        pending = {}
        for name, lane, t in (("x", lanes[0], x), ("y", lanes[1], y)):
            pending[name] = lane.submit(self.op, t, t)
        return pending["x"].result(), pending["y"].result()
answer = Concurrent()
