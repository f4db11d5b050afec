# expect: 8:16: error: conversion '%d' does not match argument 2, which is float32
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    wp.printf("%d\n", a[i])
