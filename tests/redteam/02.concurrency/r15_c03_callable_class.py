# expect: pass callable class instance, zero-arg lambdas submitted, prints a plain-text line
# hint: 
class ConcurrentSquares:
    """Calls like run_concurrently(x, y, lanes): x @ x on lanes[0], y @ y on lanes[1], in flight at once."""

    def __call__(self, x, y, lanes):
        lane_x, lane_y = lanes[0], lanes[1]
        future_x = lane_x.submit(lambda: x @ x)
        future_y = lane_y.submit(lambda: y @ y)
        print(f"launched 2 products on {type(lane_x).__name__} and {type(lane_y).__name__}")
        return future_x.result(), future_y.result()


answer = ConcurrentSquares()
