"""The Chinese of 04_self_attention's hidden checks: the texts its checks.py passes
to t(), and the names and hints of its mistakes and rules. Terms follow
autograder/i18n/GLOSSARY.md."""

CATALOG = {
    "inputs 100 times larger (scores in the thousands) should still give torch's result, with "
    "no nan or inf: torch.softmax takes each row's largest score off first, a softmax written "
    "with torch.exp overflows":
        "输入放大 100 倍（分数上千）时结果仍应等于 torch 的结果，不能出现 nan 或 inf："
        "torch.softmax 会先减去每行最大的分数，而直接用 torch.exp 写的 softmax 会溢出",
    "Inputs a hundred times larger (scores in the thousands) still give torch's result":
        "输入放大一百倍（分数上千）时结果仍等于 torch 的结果",
    'permuting the input rows should permute the output rows the same way (self-attention has no '
    'notion of position)':
        '打乱输入的行，输出的行也应以同样的方式打乱（自注意力本身不含位置信息）',
    'with a leading batch dim each sequence should be attended to on its own':
        '最前面多一个批维度时，每个序列应各自独立地计算注意力',
    "when every value is the same vector, every context should be that vector: each query's "
    'weights must sum to 1 over the keys':
        '所有值向量都相同时，每个上下文向量都应等于这个向量：每个查询在所有键上的注意力权重之和必'
        '须为 1',
    'the result should equal torch.nn.functional.scaled_dot_product_attention of the projected '
    'queries, keys and values':
        '结果应等于对投影后的查询、键和值调用 torch.nn.functional.scaled_dot_product_attention '
        '的输出',
    "the module's parameters should be nn.Parameter attributes W_query, W_key, W_value, made in "
    'that order (found {names})':
        '模块的参数应是依次创建的 nn.Parameter 属性 W_query、W_key、W_value（实际为 {names}）',
    'SelfAttention({d_in}, {d_kq}, {d_v}) should have weights of shapes (d_in, d_out_kq), (d_in, '
    'd_out_kq), (d_in, d_out_v), found {shapes}':
        'SelfAttention({d_in}, {d_kq}, {d_v}) 的三个权重矩阵形状应为 (d_in, d_out_kq)、(d_in, '
        'd_out_kq)、(d_in, d_out_v)，实际为 {shapes}',
    "forward(x) should be self-attention of x with the module's own W_query, W_key, W_value":
        'forward(x) 应是用模块自己的 W_query、W_key、W_value 对 x 计算的自注意力',
    'random case {number} (SelfAttention({d_in}, {d_kq}, {d_v}))':
        '随机用例 {number}（SelfAttention({d_in}, {d_kq}, {d_v})）',
    '{example}: the contexts of all six words': '{example}：全部六个词的上下文向量',
    '{example}: context_3 (row index 2)': '{example}：context_3（行下标为 2）',
    '{example}: SelfAttention(3, 2, 4) under seed 123':
        '{example}：种子 123 下的 SelfAttention(3, 2, 4)',
    '{example}: the weights SelfAttention(3, 2, 4) draws under seed 123':
        '{example}：种子 123 下 SelfAttention(3, 2, 4) 生成的权重矩阵',
    'divide the scores by the square root of the key size before the softmax':
        '在 softmax 之前把注意力分数除以键维度的平方根',
    'the scale is the square root of the size of the keys (and queries), not of the values':
        '缩放因子是键（和查询）维度的平方根，而不是值向量维度的平方根',
    'row i of the scores belongs to query i: compute queries @ keys^T, with queries from W_query '
    'and keys from W_key':
        '注意力分数的第 i 行属于查询 i：计算 queries @ keys^T，其中查询由 W_query 得到，键由 '
        'W_key 得到',
    'row i of the weights belongs to query i: multiply weights @ values as they are':
        '注意力权重的第 i 行属于查询 i：直接计算 weights @ values，不要转置',
    "each query's weights are normalised over the keys: the last dim of the scores":
        '每个查询的注意力权重在所有键上归一化：也就是注意力分数的最后一维',
    'no Python loop': '不用 Python 循环',
    'no work repeated per position': '不为每个位置重复运算',
    'weights drawn in another order': '权重矩阵的生成顺序不对',
    'draw W_query first, then W_key, then W_value, so that a seed gives the same weights':
        '先生成 W_query，再生成 W_key，最后生成 W_value，这样同一个种子才会得到相同的权重矩阵',
    'weights drawn by randn instead of rand': '权重矩阵用 randn 而不是 rand 生成',
    'draw the weights uniformly in [0, 1) with torch.rand, as the step asks':
        '按本步骤的要求，用 torch.rand 在 [0, 1) 上均匀地生成权重矩阵',
    'weights drawn as (d_out, d_in)': '权重矩阵的形状取成了 (d_out, d_in)',
    'in the row convention a weight is (d_in, d_out) and is used as x @ W':
        '在行约定下，权重矩阵的形状是 (d_in, d_out)，用法是 x @ W',
    # the hidden properties, in words (their docstrings' first line)
    'Reordering the input rows reorders the output rows the same way':
        '打乱输入行的顺序，输出行按同样的方式重新排列',
    'With a batch dimension, each sequence is attended to on its own':
        '有批维度时，每个序列各自独立地做注意力',
    "Each query's weights sum to 1 over the keys":
        '每个查询对所有键的注意力权重之和为 1',
    "The result matches torch's scaled_dot_product_attention on the projected inputs":
        '结果与 torch 的 scaled_dot_product_attention 在投影后的输入上的结果一致',
    'The module holds W_query, W_key and W_value as parameters of the right shapes':
        '模块以形状正确的参数保存 W_query、W_key 和 W_value',
    "The module's forward(x) is self-attention with its own weights":
        '模块的 forward(x) 就是用它自己的权重矩阵做自注意力',
    # the labels of its figures (figures.py)
    'weights':
        '注意力权重',
    'context':
        '上下文向量',
}
