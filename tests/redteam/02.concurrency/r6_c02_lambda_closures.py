# expect: pass
# hint:
def answer(x, y, lanes):
    fx = lanes[0].submit(lambda: x @ x)
    fy = lanes[1].submit(lambda: y @ y)
    xx = fx.result()
    yy = fy.result()
    return xx, yy
