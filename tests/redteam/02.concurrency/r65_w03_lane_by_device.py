# expect: fail lanes looked up by device in a dict: when both lanes share a device (two streams, two CPU threads) both products go to lanes[1], in sequence
# hint: same device|one lane|lanes\[0\]|both (products )?(on|to) (one|the same|lanes\[1\])|not concurrent|in sequence|one after the other|second lane
# Wrong: {device: lane} keeps only the last lane of each device, so on one GPU (two streams) or
# the CPU (two threads) lanes[0] never gets x @ x and the two products run one after the other.

import torch


def answer(x, y, lanes):
    """(x @ x, y @ y), each on the lane of its input's device, at the same time."""
    by_device = {torch.device(getattr(lane, "device", "cpu")): lane for lane in lanes}
    lane_x = by_device.get(x.device, lanes[0])
    lane_y = by_device.get(y.device, lanes[1])
    fx = lane_x.submit(torch.matmul, x, x)
    fy = lane_y.submit(torch.matmul, y, y)
    return fx.result(), fy.result()
