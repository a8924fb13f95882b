# expect: fail The function given to lanes[1] first waits for lanes[0]'s future, inside the lane's thread, so y @ y starts only when x @ x is done: launched "both at once" from the caller, but serialized out of its sight.
# hint: inside|wait|result|lane|function given|one after|concurren
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)

    def after_x(m, previous):
        previous.result()  # make sure lane 0 is done first: "safer"
        return m @ m

    fy = lanes[1].submit(after_x, y, fx)
    return fx.result(), fy.result()
