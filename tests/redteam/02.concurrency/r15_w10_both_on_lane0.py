# expect: fail launches both products on lanes[0] (then waits for both): lanes[1] is never used, so they run one after the other
# hint: lanes?\W*1|second lane|one lane|same lane|single lane|both .{0,40}lanes?\W*0|sequen|one after|in turn|unused|never used|not used
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), both launched before either is waited for."""
    lane = lanes[0]  # x and y live on lanes[0]'s device: keep them together
    fx = lane.submit(torch.matmul, x, x)
    fy = lane.submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
