# expect: 1:1: error: the file does not import warp (expected 'import warp as wp')
import numpy as np


def f():
    pass
