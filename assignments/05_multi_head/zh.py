"""The Chinese of 05_multi_head's hidden checks: the texts its checks.py passes
to t(), and the names and hints of its mistakes and rules. Terms follow
autograder/i18n/GLOSSARY.md."""

CATALOG = {
    'the result should be (h, seq, d_out)': '结果的形状应为 (h, seq, d_out)',
    'head i of the result should be x @ W[i].T, the single-head projection':
        '结果中下标为 i 的头应是单头投影 x @ W[i].T',
    'the result should be (h, seq, d_v)': '结果的形状应为 (h, seq, d_v)',
    'head i should be single-head scaled dot-product attention with W_query[i].T, W_key[i].T and '
    'W_value[i].T':
        '下标为 i 的头应是用 W_query[i].T、W_key[i].T 和 W_value[i].T 计算的单头缩放点积注意力',
    'the result should be (seq, h * d_v)': '结果的形状应为 (seq, h * d_v)',
    'random case, an attn_mask per head (E={E}, {h} heads, L={L}, N={N}, S={S})':
        '随机用例，每个头各有一个 attn_mask（E={E}，{h} 个头，L={L}，N={N}，S={S}）',
    "a copy made by from_torch(m) should give m's output and head-averaged weights (with an "
    'attn_mask)':
        'from_torch(m) 得到的副本应给出与 m 相同的输出和按头平均的注意力权重（带 attn_mask 时）',
    'positions hidden by key_padding_mask or attn_mask should get a weight of exactly 0':
        '被 key_padding_mask 或 attn_mask 掩码掉的位置，注意力权重应恰好为 0',
    "every query's weights should sum to 1 over the keys":
        '每个查询在所有键上的注意力权重之和应为 1',
    "MultiHeadAttention({E}, {h}) should hold exactly nn.MultiheadAttention's parameters "
    '{layout}, found {got}':
        'MultiHeadAttention({E}, {h}) 的参数应与 nn.MultiheadAttention '
        '的完全一致：{layout}，实际为 {got}',
    "columns head * d_v to (head + 1) * d_v should hold head `head`'s context, head 0 first":
        '下标 head * d_v 到 (head + 1) * d_v 的列应存放下标为 `head` 的头的上下文向量，'
        '下标为 0 的头在最前',
    'random case, {masks} (E={E}, {h} heads, L={L}, N={N}, S={S})':
        '随机用例，{masks}（E={E}，{h} 个头，L={L}，N={N}，S={S}）',
    '{example}: multi-head keys': '{example}：多头的键',
    '{example}: multi-head values': '{example}：多头的值',
    '{example}: query 2 in every head': '{example}：每个头中的查询 2',
    "{example}: every head's contexts": '{example}：每个头的上下文向量',
    '{example}: context of query 2 in every head': '{example}：每个头中查询 2 的上下文向量',
    '{example}: the three heads side by side': '{example}：三个头左右并排',
    "the third source's example, MultiHeadAttention(10, 10) on 3 x 4 x 10 queries: the "
    'shapes of output and weights':
        '资料中的例子，MultiHeadAttention(10, 10) 作用于 3 x 4 x 10 '
        '的查询：输出与注意力权重的形状',
    "the third source's example: a copy of nn.MultiheadAttention(10, 10)":
        '资料中的例子：nn.MultiheadAttention(10, 10) 的副本',
    'no mask': '不加掩码',
    'both masks': '两种掩码都加',
    'result left as (h, d_out, seq)': '结果仍是 (h, d_out, seq)，没有交换最后两维',
    'torch.bmm(W, x^T) gives (h, d_out, seq); swap its last two dims to get one row per position':
        'torch.bmm(W, x^T) 的形状是 (h, d_out, seq)；交换最后两维，使每个位置占一行',
    'reshape instead of transpose': '用 reshape 代替了 transpose',
    'reshape keeps the memory order and mixes positions with features; swap the last two dims '
    'with transpose (or permute)':
        'reshape 保留内存中的排列顺序，会把位置和特征搅在一起；请用 transpose（或 '
        'permute）交换最后两维',
    'no Python loop': '不用 Python 循环',
    'no work repeated per head or position': '不为每个头或每个位置重复运算',
    'calls torch.bmm': '调用 torch.bmm',
    'every head is projected by one batched product': '所有头的投影由一次批量矩阵乘法完成',
    "divide every head's scores by the square root of the key size before the softmax":
        '在 softmax 之前把每个头的注意力分数除以键维度的平方根',
    'the scale is the square root of the size of the keys, not of the values':
        '缩放因子是键维度的平方根，而不是值维度的平方根',
    "the scores are (h, seq_q, seq_k): normalise each query's row over the keys, the last dim":
        '注意力分数的形状是 (h, seq_q, seq_k)：每个查询那一行要在所有键上归一化，也就是最后一维',
    'heads merged by reshape without transposing': '合并多头时直接 reshape，没有先转置',
    'a plain reshape of (h, seq, d_v) mixes positions of one head into a row; bring the position '
    'axis first (transpose), then reshape':
        '直接 reshape (h, seq, d_v) '
        '会把同一个头的不同位置混进同一行；先把位置轴换到最前（transpose），再 reshape',
    'heads stacked one below the other': '多个头上下堆叠了',
    'the heads go side by side, along the feature axis: one row per position':
        '各个头沿特征轴左右并排：每个位置占一行',
    "the heads' outputs are (N * h, L, head_dim): bring L first (transpose) before reshaping to "
    '(L, N, E)':
        '各个头的输出形状是 (N * h, L, head_dim)：先把 L 换到最前（transpose），再 reshape 成 '
        '(L, N, E)',
    'weights not averaged over heads': '注意力权重没有在各头上取平均',
    'return the weights averaged over the heads, (N, L, S), as nn.MultiheadAttention does':
        '像 nn.MultiheadAttention 一样，返回在各头上取平均后的注意力权重，形状为 (N, L, S)',
    'scaled by sqrt(embed_dim) instead of sqrt(head_dim)':
        '用 sqrt(embed_dim) 而不是 sqrt(head_dim) 缩放',
    'each head works in head_dim = embed_dim / num_heads dimensions; scale by the square root of '
    'that':
        '每个头在 head_dim = embed_dim / num_heads 维上计算；应除以它的平方根',
    'projection weights not transposed': '投影矩阵没有转置',
    'in_proj_weight holds (out, in) rows like nn.Linear: project with x @ W.T + b':
        'in_proj_weight 和 nn.Linear 一样按 (out, in) 存放：投影时计算 x @ W.T + b',
    'key_padding_mask ignored': '忽略了 key_padding_mask',
    'float attn_mask ignored': '忽略了 float 类型的 attn_mask',
    'a float attn_mask is added to the scores as it is (its -inf hide keys, its finite values '
    'shift the scores); only a bool mask becomes 0 / -inf':
        'float 类型的 attn_mask 原样加到注意力分数上（其中的 -inf 掩码掉键，有限值则平移分数）；'
        '只有 bool 掩码才要先转成 0 / -inf',
    'random case, a float attn_mask of finite values and -inf (E={E}, {h} heads, L={L}, N={N}, '
    'S={S})':
        '随机用例，float 类型的 attn_mask，含有限值和 -inf（E={E}，{h} 个头，L={L}，N={N}，S={S}）',
    'keys that key_padding_mask marks True must get no weight from any query':
        'key_padding_mask 标为 True 的键，不能从任何查询那里分到注意力权重',
    'no built-in multi-head attention': '不用内置的多头注意力',
    'this step is about writing multi-head attention yourself': '这一步就是要你亲手写出多头注意力',
    # the hidden properties, in words (their docstrings' first line)
    'Projecting every head at once matches projecting head by head':
        '一次投影所有头，与逐个头投影的结果一致',
    'Each head matches single-head scaled dot-product attention':
        '每个头都与单头的缩放点积注意力一致',
    "The heads' contexts stand side by side, head 0 first":
        '各个头的上下文向量并排拼接，下标为 0 的头在最前',
    "A copy of torch's nn.MultiheadAttention gives torch's output and weights":
        '从 torch 的 nn.MultiheadAttention 复制来的模块，输出和注意力权重都与 torch 一致',
    'Masked positions get a weight of exactly 0':
        '被掩码的位置的注意力权重恰好为 0',
    "The module holds exactly the parameters of torch's nn.MultiheadAttention":
        '模块的参数与 torch 的 nn.MultiheadAttention 完全相同',
    # the labels of its figures (figures.py)
    'transpose':
        '转置',
    'slice $i$: $W_i\\,x^\\top$':
        '切片 i：Wᵢ xᵀ',
    'queries':
        '查询',
    'h matrices':
        'h 个矩阵',
    'views: no copy':
        '视图：不复制',
    'all heads, one call':
        '所有头，一次调用',
    'split':
        '拆分',
    'attention':
        '注意力',
    'concat':
        '拼接',
    'output':
        '输出',
    'head $i$: softmax$(Q_i K_i^\\top/\\sqrt{{{dim}}})\\,V_i$;  $K$ and $V$ split the same way':
        '头 i：softmax(Qᵢ Kᵢᵀ/√{dim}) Vᵢ；K 和 V 也这样拆分',
}
