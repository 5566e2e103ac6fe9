// node export_ranks.mjs <dir>: writes gpt-tokenizer's rank tables as <dir>/o200k_base.tiktoken and
// <dir>/cl100k_base.tiktoken, in the format OpenAI publishes them: "<base64 of the token's bytes>
// <rank>\n", in rank order. Prints each file's sha256.
//
// With gpt-tokenizer 4.0.0 both files are byte for byte the ones OpenAI publishes: their sha256 are the
// expected_hash values of tiktoken's tiktoken_ext/openai_public.py (o200k_base 446a9538...1a2d,
// cl100k_base 223921b7...b2a7), which tests/tokens/CMakeLists.txt checks after each export.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireOracle } from './check_installed.mjs';

requireOracle();
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node export_ranks.mjs <dir>');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });

for (const name of ['o200k_base', 'cl100k_base']) {
  // Each entry is the token as a string when its bytes are UTF-8, else as an array of bytes; the index
  // is its rank. An unused rank would be a hole, which the file could not show: refuse it.
  const { default: ranks } = await import(`gpt-tokenizer/bpeRanks/${name}`);
  const lines = [];
  for (let rank = 0; rank < ranks.length; ++rank) {
    const token = ranks[rank];
    if (token === undefined) throw new Error(`${name}: no token has rank ${rank}`);
    const bytes = typeof token === 'string' ? Buffer.from(token, 'utf8') : Buffer.from(token);
    lines.push(`${bytes.toString('base64')} ${rank}\n`);
  }
  const text = Buffer.from(lines.join(''), 'utf8');
  writeFileSync(join(dir, `${name}.tiktoken`), text);
  console.log(`${name}.tiktoken ${createHash('sha256').update(text).digest('hex')}`);
}
