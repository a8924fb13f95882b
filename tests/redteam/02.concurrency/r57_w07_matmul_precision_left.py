# expect: fail calls torch.set_float32_matmul_precision("high") to let the products use TF32 and never puts the process-wide setting back
# hint: precision|float32_matmul|matmul_precision|tf32|process|setting|restore|put back|changed|left|backends
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    torch.set_float32_matmul_precision("high")  # TF32 on tensor cores: faster products
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
