# expect: pass
# hint:
# Right: functools.partial fixing the product (operator.matmul, the @ operator); both submits
# come before either result(), and nothing is copied or read back.

import functools
import operator


def _run(x, y, lanes, *, product):
    fx = lanes[0].submit(product, x, x)
    fy = lanes[1].submit(product, y, y)
    return fx.result(), fy.result()


answer = functools.partial(_run, product=operator.matmul)
