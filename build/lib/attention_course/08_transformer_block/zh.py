"""The Chinese of 08_transformer_block's hidden checks: the texts its checks.py passes to t(),
and the names and hints of its mistakes and rules. Terms follow autograder/i18n/GLOSSARY.md."""

CATALOG = {
    # sinusoidal_positions
    '{seq_len} positions, d_model = {d_model}': '{seq_len} 个位置，d_model = {d_model}',
    'column 2i of row p should be sin(p / 10000^(2i / d_model)) and column 2i + 1 the cosine '
    'of the same angle':
        '第 p 行第 2i 列应为 sin(p / 10000^(2i / d_model))，第 2i + 1 列应为同一角度的余弦',
    'an odd d_model ({odd}) should raise ValueError': '奇数的 d_model（{odd}）应抛出 ValueError',
    'the ValueError for an odd d_model should name the value ({odd})':
        'd_model 为奇数时，ValueError 的消息应写出这个值（{odd}）',
    'sin and cos exchanged': 'sin 和 cos 颠倒了',
    'the even columns (0, 2, 4 ...) hold the sines, the odd ones the cosines':
        '偶数列（0、2、4……）放正弦，奇数列放余弦',
    'i instead of 2i in the exponent': '指数中用了 i 而不是 2i',
    'columns 2i and 2i + 1 share the angle p / 10000^(2i / d_model): the exponent counts '
    'columns (0, 2, 4 ...), not pairs (0, 1, 2 ...)':
        '第 2i 列和第 2i + 1 列共用角度 p / 10000^(2i / d_model)：指数数的是列（0、2、4……），'
        '而不是列对（0、1、2……）',
    'sines and cosines in two halves': '正弦和余弦分成了前后两半',
    'sines and cosines are interleaved: column 2i holds a sine and column 2i + 1, right beside '
    'it, the cosine of the same angle; they are not two blocks side by side':
        '正弦和余弦是交错排列的：第 2i 列放正弦，紧挨着它的第 2i + 1 列放同一角度的余弦；'
        '它们不是并排的两大块',
    'one exponent for every column': '每一列各用一个指数',
    'the angle of columns 2i and 2i + 1 is p / 10000^(2i / d_model): the frequency falls from '
    'one pair of columns to the next':
        '第 2i 列和第 2i + 1 列的角度是 p / 10000^(2i / d_model)：频率是一对列一对列地降低的',
    # layer_norm
    'random case, x of shape {shape}': '随机用例，x 的形状为 {shape}',
    'one vector, x of shape {shape}': '单个向量，x 的形状为 {shape}',
    'rows of tiny spread (variance near eps), x of shape {shape}':
        '起伏极小的行（方差接近 eps），x 的形状为 {shape}',
    'eps = {eps}, x of shape {shape}': 'eps = {eps}，x 的形状为 {shape}',
    'rows far from zero with a small spread (means {means}, standard deviation under 1), x of '
    'shape {shape}':
        '远离 0、起伏很小的行（均值为 {means}，标准差小于 1），x 的形状为 {shape}',
    'layer_norm should equal torch.nn.functional.layer_norm over the last dim (eps = {eps})':
        'layer_norm 应等于在最后一个维度上做的 torch.nn.functional.layer_norm（eps = {eps}）',
    'with gamma = 1 and beta = 0, every row should have mean 0':
        'gamma = 1、beta = 0 时，每一行的均值应为 0',
    'with gamma = 1 and beta = 0, every row should have (biased) variance 1, up to eps':
        'gamma = 1、beta = 0 时，每一行的（有偏）方差应为 1（eps 带来的偏差除外）',
    'a row whose entries are all equal should give beta (no division by zero)':
        '所有元素都相等的行应得到 beta（不能除以 0）',
    'no built-in layer norm': '不用内置的层归一化',
    'this step is about writing layer normalisation yourself': '这一步要你亲手写出层归一化',
    'unbiased variance': '用了无偏方差',
    'layer norm divides the squared deviations by d (the biased variance); torch.var divides by '
    'd - 1 unless told unbiased=False':
        '层归一化把离差平方和除以 d（有偏方差）；torch.var 除非指定 unbiased=False，否则除以 d - 1',
    'eps outside the square root': 'eps 加在了平方根外面',
    'eps is added to the variance, under the square root: sqrt(var + eps)':
        'eps 加在方差上，位于平方根里面：sqrt(var + eps)',
    'no gamma and beta': '缺少 gamma 和 beta',
    'after normalising, scale by gamma and shift by beta: x_hat * gamma + beta':
        '归一化之后，用 gamma 缩放、用 beta 平移：x_hat * gamma + beta',
    'gamma and beta exchanged': 'gamma 和 beta 颠倒了',
    'gamma multiplies the normalised x and beta is added: x_hat * gamma + beta':
        'gamma 乘以归一化后的 x，beta 是加上去的：x_hat * gamma + beta',
    'statistics over the wrong dim': '统计量算错了维度',
    'each row (the last dim, one vector of d features) is normalised on its own mean and '
    'variance':
        '每一行（最后一个维度，一个有 d 个特征的向量）用它自己的均值和方差归一化',
    'variance as E[x²] − E[x]² in float32': '在 float32 中用 E[x²] − E[x]² 算方差',
    'E[x²] − E[x]² loses the variance to rounding when the mean is large: float32 keeps too few '
    'digits of two large, nearly equal numbers; subtract the mean first and take the mean of '
    '(x − mean)²':
        '均值很大时，E[x²] − E[x]² 会因舍入丢掉方差：两个很大且几乎相等的数，float32 '
        '保留的有效数字太少；应先减去均值，再求 (x − mean)² 的均值',
    # feed_forward
    'random case, x of shape {shape}, d_ff = {d_ff}': '随机用例，x 的形状为 {shape}，d_ff = {d_ff}',
    'one vector, x of shape {shape}, d_ff = {d_ff}': '单个向量，x 的形状为 {shape}，d_ff = {d_ff}',
    'feed_forward should equal linear2(relu(linear1(x))) with W1 and W2 as the (d_in, d_out) '
    'weights':
        'feed_forward 应等于 linear2(relu(linear1(x)))，'
        '其中 W1 和 W2 是 (d_in, d_out) 形状的权重矩阵',
    'each position goes through the network on its own: the last row alone should give the '
    'last row of the output':
        '每个位置单独经过前馈网络：只输入最后一行，应得到输出的最后一行',
    'no relu': '缺少 relu',
    'the hidden layer goes through relu before W2: without it the two layers are one linear map':
        '隐藏层在乘以 W2 之前要经过 relu：没有它，两层合起来只是一个线性映射',
    'relu after W2 instead of after W1': 'relu 放在了 W2 之后而不是 W1 之后',
    'relu acts on the hidden layer, relu(x @ W1 + b1); the output, hidden @ W2 + b2, is not '
    'clipped':
        'relu 作用在隐藏层上，即 relu(x @ W1 + b1)；输出 hidden @ W2 + b2 不做截断',
    'b1 added after the relu': 'b1 加在了 relu 之后',
    'the first bias goes inside the relu: relu(x @ W1 + b1)':
        '第一个偏置放在 relu 里面：relu(x @ W1 + b1)',
    # TransformerBlock
    'no mask': '不加掩码',
    "a new TransformerBlock({E}, {heads}, {d_ff}) on x of shape {shape}: the output's shape":
        '新建的 TransformerBlock({E}, {heads}, {d_ff}) 作用在形状为 {shape} 的 x 上：输出的形状',
    'random mask': '随机掩码',
    'causal mask': '因果掩码',
    'a copy of TransformerEncoderLayer({E}, {heads}, {d_ff}), {kind}, x of shape {shape}':
        'TransformerEncoderLayer({E}, {heads}, {d_ff}) 的副本，{kind}，x 的形状为 {shape}',
    'a copy made by from_torch(layer) should give the output of the layer in eval mode '
    '(dropout 0, batch_first, norm_first), with and without a bool attn_mask':
        '由 from_torch(layer) 得到的副本，无论有没有布尔 attn_mask，都应给出该层在 eval 模式下'
        '（dropout 0、batch_first、norm_first）的输出',
    'under a causal mask, changing the last position should change no output before it':
        '在因果掩码下，改变最后一个位置不应改变它之前的任何输出',
    'the sequences of a batch are independent: the last sequence alone should give the last '
    'output of the batch':
        '一批中的各个序列互不影响：只输入最后一个序列，应得到这一批输出中的最后一个',
    'without a mask, reordering the positions of x should reorder the output in the same way '
    '(the block itself knows no positions)':
        '不加掩码时，打乱 x 中位置的顺序，输出也应以同样的方式打乱（块本身不知道位置）',
    'no built-in attention or encoder layer': '不用内置的注意力或编码器层',
    'write the block from your own layer_norm, feed_forward and F.scaled_dot_product_attention':
        '用你自己的 layer_norm、feed_forward 和 F.scaled_dot_product_attention 搭出这个块',
    'calls your layer_norm': '调用你的 layer_norm',
    'both norms of the block are your layer_norm': '块中的两个层归一化都用你的 layer_norm',
    'calls your feed_forward': '调用你的 feed_forward',
    "the block's network is your feed_forward": '块中的前馈网络就是你的 feed_forward',
    'calls F.scaled_dot_product_attention': '调用 F.scaled_dot_product_attention',
    'the heads are run by F.scaled_dot_product_attention':
        '各头由 F.scaled_dot_product_attention 计算',
    'post-norm instead of pre-norm': '用了后置归一化而不是前置归一化',
    'norm_first: normalise the input of each sublayer, x + attention(layer_norm(x)), not the sum '
    'after it, layer_norm(x + attention(x))':
        'norm_first：归一化的是每个子层的输入，即 x + attention(layer_norm(x))，'
        '而不是相加之后的和 layer_norm(x + attention(x))',
    "attention's residual missing": '缺少注意力的残差连接',
    "add the attention's output to its input: h = x + attention(layer_norm(x))":
        '把注意力的输出加到它的输入上：h = x + attention(layer_norm(x))',
    "feed-forward's residual missing": '缺少前馈网络的残差连接',
    "add the network's output to its input: h + feed_forward(layer_norm(h))":
        '把前馈网络的输出加到它的输入上：h + feed_forward(layer_norm(h))',
    'mask sense inverted': '掩码的含义弄反了',
    "our attn_mask is True where a query may NOT attend; F.scaled_dot_product_attention's "
    'boolean attn_mask is True where it may: pass ~attn_mask':
        '我们的 attn_mask 在查询不许关注的位置为 True；F.scaled_dot_product_attention 的布尔 '
        'attn_mask 在可以关注的位置为 True：要传 ~attn_mask',
    'heads merged by reshape without transposing': '合并多头时直接 reshape，没有先转置',
    "the heads' outputs are (N, h, L, head_dim): bring L before h (transpose(1, 2)) before "
    'reshaping to (N, L, E)':
        '各头的输出形状为 (N, h, L, head_dim)：先把 L 移到 h 之前（transpose(1, 2)），'
        '再 reshape 成 (N, L, E)',
    'heads split by reshape without transposing': '拆分多头时直接 reshape，没有先转置',
    "cut each row's E features into h chunks, (N, L, h, head_dim), then move h before L "
    '(transpose(1, 2)); a reshape straight to (N, h, L, head_dim) mixes positions':
        '把每一行的 E 个特征切成 h 段，得到 (N, L, h, head_dim)，再把 h 移到 L 之前'
        '（transpose(1, 2)）；直接 reshape 成 (N, h, L, head_dim) 会把不同位置混在一起',
    'scaled by sqrt(d_model) instead of sqrt(head_dim)':
        '用 sqrt(d_model) 而不是 sqrt(head_dim) 缩放',
    'each head works in head_dim = d_model / num_heads dimensions; its scores are scaled by '
    '1/sqrt(head_dim), which F.scaled_dot_product_attention does by itself':
        '每个头在 head_dim = d_model / num_heads 维中计算；它的注意力分数乘以 1/sqrt(head_dim)，'
        'F.scaled_dot_product_attention 会自己做这一步',
    "one norm's gamma and beta used twice": '同一个层归一化的 gamma 和 beta 用了两次',
    'the block has two norms with their own gamma and beta: norm1 before the attention, norm2 '
    'before the feed-forward network':
        '块中有两个层归一化，各有自己的 gamma 和 beta：norm1 在注意力之前，norm2 在前馈网络之前',
    # the hidden properties, in words (their docstrings' first line)
    'Every entry follows the sine and cosine formula':
        '每个元素都符合正弦、余弦公式',
    'An odd d_model raises a ValueError naming it':
        '奇数的 d_model 会引发 ValueError，并说出这个值',
    "The result matches torch's layer_norm over the last dimension":
        '结果与 torch 的 layer_norm 在最后一维上的结果一致',
    'With gamma 1 and beta 0, every row has mean 0 and variance 1':
        'gamma 为 1、beta 为 0 时，每一行的均值为 0、方差为 1',
    'A row of equal entries gives beta':
        '元素全相等的一行得到 beta',
    'The network matches linear2(relu(linear1(x)))':
        '前馈网络与 linear2(relu(linear1(x))) 一致',
    'Each position goes through the network on its own':
        '每个位置各自独立地通过前馈网络',
    "A copy of torch's TransformerEncoderLayer gives torch's output":
        '从 torch 的 TransformerEncoderLayer 复制来的块，输出与 torch 一致',
    'Under a causal mask, no output depends on later positions':
        '加上因果掩码后，任何输出都不依赖后面的位置',
    'The sequences of a batch do not affect each other':
        '同一批中的序列互不影响',
    'Without a mask, reordering the positions reorders the output the same way':
        '没有掩码时，打乱位置的顺序，输出按同样的方式重新排列',
    # the labels of its figures (figures.py)
    'column (even: sin, odd: cos)':
        '列（偶数列：sin，奇数列：cos）',
    'position p':
        '位置 p',
    'multi-head\nattention':
        '多头\n注意力',
    'feed-forward\n(relu)':
        '前馈网络\n（relu）',
    'residual: x + attention(LN1(x))':
        '残差连接：x + attention(LN1(x))',
    'residual: h + FFN(LN2(h))':
        '残差连接：h + FFN(LN2(h))',
    'attn_mask: True = may not attend':
        'attn_mask：True 表示不许关注',
}
