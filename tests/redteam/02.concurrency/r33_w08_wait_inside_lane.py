# expect: fail the function given to lanes[1] first waits for the x future, so y @ y starts only after x @ x ends
# hint: inside|wait|sequence|one after the other|result|lane
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)

    def second(m):
        fx.result()  # keep the two lanes in step
        return m @ m

    fy = lanes[1].submit(second, y)
    return fx.result(), fy.result()


answer = run_concurrently
