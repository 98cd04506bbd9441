"""The torch reference for the two-stage sum, and what a wrong answer usually means."""


def reference(x):
    return x.double().sum().to(x.dtype)


def hint_output(check, args, got):
    x = args[0]
    n = x.numel()
    out = float(got[0]) if got and got[0].numel() == 1 else None
    if out is None:
        return "Return a 0-d tensor holding the total."
    pad = -n % 1024
    if pad and abs(out - (float(x.double().sum()) + pad)) < 1e-2 * max(1.0, abs(out)):
        return (f"Off by exactly {pad}, the number of padding lanes in the last block: load them with "
                "other=0.0 so they add nothing.")
    first = float(x[: 64 * 1024].double().sum())
    if n > 64 * 1024 and abs(out - first) < 1e-2 * max(1.0, abs(first)):
        return ("Only the first BLOCK partial sums were added: there are cdiv(n, BLOCK) of them, so the second "
                "stage loops over them BLOCK at a time.")
    return ("Each stage-1 program writes its own slot, partial_ptr + program_id(0); stage 2 adds every slot "
            "(mask the last step with offs < n_partials).")
