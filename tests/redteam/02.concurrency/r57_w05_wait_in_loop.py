# expect: fail one loop launches and waits for each product in turn (result() inside the loop), so the second is launched only after the first is done
# hint: wait|result|one after|sequen|serial|in turn|concurren|before launching|launch both
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    out = []
    for lane, m in zip(lanes, (x, y)):
        out.append(lane.submit(torch.matmul, m, m).result())
    return tuple(out)


answer = run_concurrently
