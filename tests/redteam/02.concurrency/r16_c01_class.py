# expect: pass a class whose instance is the callable; launch phase and wait phase as methods
# hint: 
import torch


class ConcurrentSquares:
    """(x @ x, y @ y): x on lanes[0], y on lanes[1], both launched before either is awaited."""

    __name__ = "run_concurrently"

    @staticmethod
    def launch(x, y, lanes):
        return lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)

    @staticmethod
    def collect(futures):
        return tuple(future.result() for future in futures)

    def __call__(self, x, y, lanes):
        return self.collect(self.launch(x, y, lanes))


answer = ConcurrentSquares()
