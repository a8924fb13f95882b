# expect: fail submits lambdas that capture the loop variable by name (late binding), so a lane that runs its function after the loop moves on squares y for both products
# hint: late.?binding|closure|lambda|captur|loop variable|default argument|both .{0,30}y ?@ ?y|same (input|matrix|tensor)
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y): launch both, then wait for both."""
    futures = []
    for lane, m in zip(lanes, (x, y)):
        futures.append(lane.submit(lambda: torch.matmul(m, m)))
    xx, yy = (f.result() for f in futures)
    return xx, yy
