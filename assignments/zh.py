"""The Chinese of the texts the course's assignments share: the worked examples' names
(documents.EXAMPLES) and the labels several assignments' checks use. Terms follow
autograder/i18n/GLOSSARY.md."""

CATALOG = {
    "the sentence 'Life is short, eat dessert first'": '句子“Life is short, eat dessert first”',
    "the sentence 'The sun rises in the east'": '句子“The sun rises in the east”',
    "the sentence 'Life is short, eat dessert last'": '句子“Life is short, eat dessert last”',
    'the seeded 4x4 input of the loop': '双重循环示例中按固定种子生成的 4x4 输入',
    'the hand-sized example': '手算示例',
    'random case {number}': '随机用例 {number}',
    'random batched case': '随机的批量用例',
    'queries and keys swapped': '查询和键颠倒了',
    'softmax over the wrong dim': 'softmax 的维度不对',
    'weights transposed when weighting the values': '给值向量加权时把注意力权重转置了',
    'no 1/sqrt(d_k)': '缺少 1/sqrt(d_k)',
    'divide the scores by sqrt(d_k) before the softmax':
        '在 softmax 之前把注意力分数除以 sqrt(d_k)',
    'sqrt(d_v) instead of sqrt(d_k)': '用了 sqrt(d_v) 而不是 sqrt(d_k)',
    'mask applied after the softmax': '在 softmax 之后才加掩码',
}
