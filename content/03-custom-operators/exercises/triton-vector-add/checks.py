"""The torch reference for the vector-add kernel."""


def reference(x, y):
    return x + y


def hint_output(check, args, got):
    return ("Elements that were never written hold whatever torch.empty left there: the grid must cover every "
            "element, grid = (triton.cdiv(n, BLOCK),) rounds up, and each program's offsets start at "
            "program_id(0) * BLOCK.")
