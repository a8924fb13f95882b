# expect: pass
# hint:
# Right: zero-argument closures submitted (the products run on the lanes, lazily); x and y stay
# alive in this frame until both results are waited for, so no input is freed early.


def answer(x, y, lanes):
    first = lanes[0].submit(lambda: x @ x)
    second = lanes[1].submit(lambda: y @ y)
    xx = first.result()
    yy = second.result()
    return xx, yy
