// Fails with a clear message when gpt-tokenizer is not installed here (scripts/setup.sh runs npm ci in
// this folder): the token tests need it as their oracle, and must fail, not skip, without it.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export function requireOracle() {
  if (!existsSync(join(here, 'node_modules', 'gpt-tokenizer', 'package.json'))) {
    console.error(`${here}/node_modules/gpt-tokenizer is missing: run scripts/setup.sh ` +
                  `(or npm ci in ${here}) to install the version package-lock.json pins`);
    process.exit(1);
  }
}
