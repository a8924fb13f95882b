# expect: fail launches both on the lanes correctly, then recomputes x @ x in the caller to verify the lane's result: the work is done twice, once outside any lane
# hint: caller|twice|again|outside|not on a lane|extra|lanes\[0\]
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    assert torch.allclose(xx, x @ x), "lane 0 computed something else"
    return xx, yy
