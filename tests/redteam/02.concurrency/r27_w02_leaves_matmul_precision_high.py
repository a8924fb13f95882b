# expect: fail calls torch.set_float32_matmul_precision("high") for faster products and never restores it: the setting is global, so on a GPU these products and every later float32 product in the program may run in TF32, not at the caller's precision; state the call leaves behind (on the CPU the values barely change)
# hint: precision|tf32|set_float32_matmul_precision|global|restor|left (on|changed|behind)|state
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    torch.set_float32_matmul_precision("high")  # tensor cores for float32 products
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
