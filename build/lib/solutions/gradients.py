"""Backward passes by hand: the gradient of softmax and of scaled dot-product attention.

Autograd records the forward pass and replays it backwards; here each gradient is written out
from the chain rule, so that its shape and its cost are visible. Given the gradient of a loss
with respect to an output, each function returns the gradients with respect to the inputs.
"""

import math

import torch


def softmax_backward(weights, grad_weights, dim=-1):
    """The gradient of a loss with respect to the scores, given weights = softmax(scores, dim)
    and grad_weights, the loss's gradient with respect to the weights (same shape, any leading
    dims): weights * (grad_weights - sum(grad_weights * weights, dim, keepdim=True))."""
    weighted = (grad_weights * weights).sum(dim=dim, keepdim=True)  # size 1 along dim
    return weights * (grad_weights - weighted)  # the shape of weights


def attention_backward(queries, keys, values, grad_context):
    """The gradients of context = softmax(Q K^T / sqrt(d_k)) V with respect to Q, K and V,
    given grad_context, the loss's gradient with respect to the context.

    queries (..., n_q, d_k), keys (..., n_k, d_k), values (..., n_k, d_v), grad_context
    (..., n_q, d_v). Returns (grad_queries (..., n_q, d_k), grad_keys (..., n_k, d_k),
    grad_values (..., n_k, d_v)).
    """
    scale = 1.0 / math.sqrt(keys.shape[-1])
    scores = queries @ keys.transpose(-2, -1) * scale  # (..., n_q, n_k)
    weights = torch.softmax(scores, dim=-1)  # (..., n_q, n_k): the forward pass again
    grad_values = weights.transpose(-2, -1) @ grad_context  # (..., n_k, d_v)
    grad_weights = grad_context @ values.transpose(-2, -1)  # (..., n_q, n_k)
    grad_scores = softmax_backward(weights, grad_weights) * scale  # (..., n_q, n_k)
    grad_queries = grad_scores @ keys  # (..., n_q, d_k)
    grad_keys = grad_scores.transpose(-2, -1) @ queries  # (..., n_k, d_k)
    return grad_queries, grad_keys, grad_values
