// Random texts from a fixed seed, mixing everything the split regexes tell apart: cases, contractions,
// digits of several scripts, punctuation, '/', every kind of space and line break, CJK, emoji, combining
// marks, title-case and modifier letters. Runs of one unit make long pieces and long whitespace runs.

// mulberry32: a small generator whose sequence depends only on the seed.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const units = [
  // letters, cases and contractions
  'a', 'e', 's', 't', 'x', 'A', 'E', 'S', 'T', 'Z', 'the', 'The', 'HTTP', 'Server', 'getURLForID', 'ID',
  "'s", "'S", "'t", "'T", "'ll", "'LL", "'re", "'ve", "'m", "'d", "'D", "'x", "'", 'É', 'é', 'Ö', 'ß', 'ǅ',
  'ʰ', 'ſ', 'ﬁ', 'Ω', 'привет', 'Привет', 'مرحبا', 'नमस्ते', 'ไทย', '한국어', 'Ἀθῆναι',
  // combining marks alone and after letters
  '\u0301', '\u0308', 'e\u0301', 'E\u0301', '\u20dd', '\u093f',
  // numbers
  '0', '1', '7', '42', '123', '2024', '99999', '٣', '９', 'Ⅻ', '²', '½',
  // punctuation and symbols
  '.', ',', '!', '?', ':', ';', '-', '_', '/', '//', '\\', '(', ')', '[', ']', '{', '}', '<', '>', '"',
  '->', '::', '...', '€', '©', '±', '→', '<|endoftext|>', '`', '#', '@', '%', '&', '*', '+', '=', '|', '~',
  // whitespace and line breaks
  ' ', ' ', ' ', '  ', '   ', '\t', '\n', '\n', '\r\n', '\r', '\n\n', ' \n ', '\u00a0', '\u3000', '\u2028',
  '\u2029', '\ufeff', '\u0085', '\u2009', '\u1680', '\u000b', '\u000c', '\u202f',
  // CJK and emoji
  '中', '文字', '日本語', 'ひらがな', 'カタカナ', '😀', '👍🏽', '👨‍👩‍👧', '🇫🇷', '❤️', '𝔘',
];

export function randomTexts(count, seed = 0x70c) {
  const next = generator(seed);
  const pick = (n) => Math.floor(next() * n);
  const texts = [];
  for (let i = 0; i < count; ++i) {
    const length = 1 + pick(i % 50 === 0 ? 400 : 40);
    let text = '';
    for (let k = 0; k < length; ++k) {
      const unit = units[pick(units.length)];
      text += next() < 0.03 ? unit.repeat(2 + pick(60)) : unit;
    }
    texts.push(text);
  }
  return texts;
}
