# expect: pass submits bound methods (x.mm), and waits for the second future first: the order of the waits does not matter once both are launched
# hint:
# name: run_concurrently


def run_concurrently(x, y, lanes):
    first = lanes[0].submit(x.mm, x)
    second = lanes[1].submit(y.mm, y)
    yy = second.result()
    xx = first.result()
    return xx, yy
