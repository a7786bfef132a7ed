"""A naive loop against a vectorized version (document 003's column convention).

X holds one input per column, (d1, N); W_Q and W_K are (d3, d1), W_V is (d2, d1), and the
outputs H = [h_1 ... h_N] are columns too, (d2, N):
h_i = sum_j softmax_j(s(k_j, q_i)) v_j with the scaled dot score s.
"""

import math

import torch

from solutions.scoring import scaled_dot_score


def loop_attention(X, W_Q, W_K, W_V):
    """Attention one query and one key at a time, as the formula reads."""
    Q = W_Q @ X  # (d3, N)
    K = W_K @ X  # (d3, N)
    V = W_V @ X  # (d2, N)
    N = X.shape[1]
    outputs = []
    for i in range(N):
        scores = torch.stack([scaled_dot_score(K[:, j], Q[:, i]) for j in range(N)])  # (N,)
        weights = torch.softmax(scores, dim=0)  # (N,)
        h_i = sum(weights[j] * V[:, j] for j in range(N))  # (d2,)
        outputs.append(h_i)
    return torch.stack(outputs, dim=1)  # (d2, N)


def vectorized_attention(X, W_Q, W_K, W_V):
    """The same outputs as loop_attention from three matrix products, no Python loop."""
    Q = W_Q @ X  # (d3, N)
    K = W_K @ X  # (d3, N)
    V = W_V @ X  # (d2, N)
    scores = K.transpose(0, 1) @ Q / math.sqrt(K.shape[0])  # (N keys, N queries)
    weights = torch.softmax(scores, dim=0)  # each column sums to 1
    return V @ weights  # (d2, N)

