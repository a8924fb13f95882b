# expect: pass single-argument lambda submitted to each lane, waits for y's result before x's
# hint:
def run_concurrently(x, y, lanes):
    square = lambda m: m @ m  # noqa: E731
    first = lanes[0].submit(square, x)
    second = lanes[1].submit(square, y)
    yy = second.result()
    xx = first.result()
    return (xx, yy)


answer = run_concurrently
