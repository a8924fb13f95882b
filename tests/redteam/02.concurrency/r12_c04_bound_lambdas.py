# expect: pass
# hint:
# name: run_concurrently


def run_concurrently(x, y, lanes):
    """Lambdas with their matrix bound as a default argument, one per lane; wait after both."""
    futures = {}
    for i, m in enumerate((x, y)):
        futures[i] = lanes[i].submit(lambda m=m: m @ m)
    return futures[0].result(), futures[1].result()
