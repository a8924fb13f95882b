# expect: pass torch.linalg.matmul (an alias of torch.matmul); the launches built eagerly into a list with enumerate over (x, y), then results collected with map(lambda f: f.result(), ...) only after the list exists
# hint: 
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    launched = [lanes[i].submit(torch.linalg.matmul, m, m) for i, m in enumerate((x, y))]
    xx, yy = map(lambda future: future.result(), launched)
    return xx, yy


answer = run_concurrently
