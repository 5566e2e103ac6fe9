// node oracle.mjs <corpus.json> <out.json>: what gpt-tokenizer makes of each text, for the differential
// test (tests/tokens/encoding_test.cpp). The texts are the corpus's (a JSON array of strings) followed
// by random ones drawn from a fixed seed; out.json is an array of
//   {"text": ..., "o200k_base": {"count": n, "ids": [...]}, "cl100k_base": {...}}
// with the count from countTokens and the ids from encode, special tokens read as ordinary text.
import { readFileSync, writeFileSync } from 'node:fs';
import { requireOracle } from './check_installed.mjs';
import { randomTexts } from './random_texts.mjs';

requireOracle();
const [corpusFile, outFile] = process.argv.slice(2);
if (!corpusFile || !outFile) {
  console.error('usage: node oracle.mjs <corpus.json> <out.json>');
  process.exit(2);
}
const texts = [...JSON.parse(readFileSync(corpusFile, 'utf8')), ...randomTexts(3000)];
const ordinary = { disallowedSpecial: new Set() };
const encodings = {
  o200k_base: await import('gpt-tokenizer/encoding/o200k_base'),
  cl100k_base: await import('gpt-tokenizer/encoding/cl100k_base'),
};
const out = texts.map((text) => {
  const entry = { text };
  for (const [name, api] of Object.entries(encodings))
    entry[name] = { count: api.countTokens(text, ordinary), ids: api.encode(text, ordinary) };
  return entry;
});
writeFileSync(outFile, JSON.stringify(out));
console.log(`${out.length} texts written to ${outFile}`);
