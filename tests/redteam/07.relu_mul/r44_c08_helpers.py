# expect: pass helper functions: a @triton.jit _relu called from the kernel, Python helpers for the flat layout and the launch, BLOCK chosen from n (32..1024).
# hint: 
# name: relu_mul
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise set-up cell does, before importing triton

import torch
import triton
import triton.language as tl


@triton.jit
def _relu(v):
    return tl.maximum(v, 0.0)


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, _relu(x) * y, mask=mask)


def _dense(t):
    """t with element i at ptr + i: t itself when it already is."""
    return t if t.is_contiguous() else t.contiguous()


def _block_for(n):
    return max(32, min(1024, triton.next_power_of_2(max(n, 1))))


def _launch(x, y, out):
    n = out.numel()
    block = _block_for(n)
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = _dense(x), _dense(y)
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    _launch(x, y, out)
    return out
