# expect: fail the job on lanes[1] first waits for lanes[0]'s future, then computes y @ y: the caller never waits early, but the lanes run one after the other
# hint: sequence|one after the other|wait|overlap|at once|same time|concurren
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    def after_x(t):
        fx.result()  # "keep the order"
        return t @ t
    fy = lanes[1].submit(after_x, y)
    return fx.result(), fy.result()
