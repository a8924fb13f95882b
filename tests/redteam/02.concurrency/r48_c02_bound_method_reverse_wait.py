# expect: pass bound methods (x.matmul) as the lane's function, waiting for the second future first
# hint:
def run_concurrently(x, y, lanes):
    lane_x, lane_y = lanes[0], lanes[1]
    fx = lane_x.submit(x.matmul, x)
    fy = lane_y.submit(y.matmul, y)
    yy = fy.result()  # the order of the waits does not matter once both are in flight
    xx = fx.result()
    return xx, yy


answer = run_concurrently
