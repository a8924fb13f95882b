# expect: pass
# hint:
# name: run_concurrently


def run_concurrently(x, y, lanes):
    """Both products in flight: submit x.matmul(x) and y.matmul(y), then collect."""
    lane_x, lane_y = lanes[0], lanes[1]
    future_x = lane_x.submit(x.matmul, x)
    future_y = lane_y.submit(y.matmul, y)
    out_x = future_x.result()
    out_y = future_y.result()
    return out_x, out_y
