// node check_report.mjs <report.json>: holds a token report (ptc-gen --token-report=FILE, or a tool
// program's `tokens --json`) to gpt-tokenizer. Every rendering's counts must equal what gpt-tokenizer
// counts in its text, and each total the sum over the tools. Exits 1 naming each difference.
import { readFileSync } from 'node:fs';
import { requireOracle } from './check_installed.mjs';

requireOracle();
const [reportFile] = process.argv.slice(2);
if (!reportFile) {
  console.error('usage: node check_report.mjs <report.json>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const ordinary = { disallowedSpecial: new Set() };
const encodings = {
  o200k_base: await import('gpt-tokenizer/encoding/o200k_base'),
  cl100k_base: await import('gpt-tokenizer/encoding/cl100k_base'),
};
const problems = [];
const sums = {};
let counted = 0;
if (JSON.stringify(report.encodings) !== JSON.stringify(Object.keys(encodings)))
  problems.push(`encodings are ${JSON.stringify(report.encodings)}`);
for (const tool of report.tools) {
  for (const [rendering, entry] of Object.entries(tool.renderings)) {
    if (entry.error !== undefined) continue;
    sums[rendering] ??= {};
    for (const [name, api] of Object.entries(encodings)) {
      const expected = api.countTokens(entry.text, ordinary);
      if (entry[name] !== expected)
        problems.push(`${tool.name}, ${rendering}, ${name}: the report says ${entry[name]}, gpt-tokenizer ${expected}`);
      sums[rendering][name] = (sums[rendering][name] ?? 0) + expected;
      counted++;
    }
  }
}
for (const [rendering, byEncoding] of Object.entries(sums))
  for (const [name, sum] of Object.entries(byEncoding))
    if (report.total?.[rendering]?.[name] !== sum)
      problems.push(`total ${rendering} ${name}: the report says ${report.total?.[rendering]?.[name]}, the sum is ${sum}`);
if (counted === 0) problems.push('the report has no rendering to count');
for (const p of problems) console.error(p);
if (problems.length) process.exit(1);
console.log(`${counted} counts agree with gpt-tokenizer`);
