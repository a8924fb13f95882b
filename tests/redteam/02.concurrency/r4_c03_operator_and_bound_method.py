# expect: pass
# hint: 
import operator
def answer(x, y, lanes):
    fx = lanes[0].submit(operator.matmul, x, x)
    fy = lanes[1].submit(y.matmul, y)
    return fx.result(), fy.result()
