"""A naive loop against a vectorized version, in the column convention of document 003 (the
notes by dsy on the textbook 《神经网络与深度学习》).

X holds one input per column, (d1, N); W_Q and W_K are (d3, d1), W_V is (d2, d1), and the
outputs H = [h_1 ... h_N] are columns too, (d2, N):
h_i = sum_j softmax_j(s(k_j, q_i)) v_j with the scaled dot score s.
"""

import math

import torch

from solutions.scoring import scaled_dot_score


def loop_attention(X, W_Q, W_K, W_V):
    """Attention one query and one key at a time, as the formula reads.

    X: (d1, N), one input per column; W_Q, W_K: (d3, d1); W_V: (d2, d1).
    Q = W_Q X and K = W_K X are (d3, N), V = W_V X is (d2, N); column i belongs to input i.
    Returns H: (d2, N), whose column i is h_i = sum_j softmax_j(s(k_j, q_i)) v_j, with
    s = scaled_dot_score, q_i = Q[:, i], k_j = K[:, j] (both (d3,)) and v_j = V[:, j] (d2,).
    """
    Q = W_Q @ X  # (d3, N): column i is query i
    K = W_K @ X  # (d3, N): column j is key j
    V = W_V @ X  # (d2, N): column j is value j
    N = X.shape[1]  # the number of inputs
    outputs = []  # h_1, ..., h_N, each (d2,)
    for i in range(N):
        scores = torch.stack([scaled_dot_score(K[:, j], Q[:, i]) for j in range(N)])  # (N,)
        weights = torch.softmax(scores, dim=0)  # (N,): query i's attention weights, sum 1
        h_i = sum(weights[j] * V[:, j] for j in range(N))  # (d2,)
        outputs.append(h_i)
    return torch.stack(outputs, dim=1)  # (d2, N): h_i is column i


def vectorized_attention(X, W_Q, W_K, W_V):
    """The same H as loop_attention from matrix products, with no Python loop.

    X: (d1, N); W_Q, W_K: (d3, d1); W_V: (d2, d1). Returns H: (d2, N), column i the
    output of input i. The scores of all pairs at once: K^T Q / sqrt(d3), (N, N), with
    key j and query i meeting at row j, column i.
    """
    Q = W_Q @ X  # (d3, N)
    K = W_K @ X  # (d3, N)
    V = W_V @ X  # (d2, N)
    scores = K.transpose(0, 1) @ Q / math.sqrt(K.shape[0])  # (N keys, N queries)
    weights = torch.softmax(scores, dim=0)  # (N, N): column i holds query i's attention weights
    return V @ weights  # (d2, N)
