# expect: fail hard-codes "aten::mm" without profiling
# hint: never called.*profile
def answer(fn, args, device):
    # matmuls always dominate, so the answer is mm
    return "aten::mm"
