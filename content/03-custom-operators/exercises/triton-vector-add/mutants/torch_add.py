import torch


def add(x, y):
    return torch.add(x, y)
