# expect: fail torch.cuda.synchronize() between the two submits ("make sure x is ready")
# hint: synchroni|sequence|one after the other|before launching|wait
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()
