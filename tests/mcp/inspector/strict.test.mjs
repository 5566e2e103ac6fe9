// The MCP Inspector's schema portability check (`inspector --cli ... --method tools/list --strict`) on
// the quickstart's tools/list, under the Node 22 it needs. The Inspector exits non-zero for errors only
// and prints warnings; here any finding fails, so a warned-on schema (a `type` array, say) cannot land.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(
  new URL('./node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js', import.meta.url));
const quickstart = process.env.PTC_QUICKSTART;
assert.ok(quickstart, 'PTC_QUICKSTART must name the quickstart binary');

/// The tools a stdio server lists and the Inspector's findings on them.
function strictCheck(command, args) {
  const run = spawnSync(process.execPath, [cli, command, ...args, '--method', 'tools/list', '--strict', '--format', 'json'],
    { encoding: 'utf8', timeout: 120_000 });
  assert.equal(run.status, 0, `the Inspector exited ${run.status}:\n${run.stderr}`);
  const envelope = JSON.parse(run.stdout);
  return { tools: envelope.result.tools, findings: envelope.schemaFindings ?? [], report: run.stderr };
}

test('the quickstart: no portability warning or error on any tool', () => {
  const { tools, findings, report } = strictCheck(quickstart, ['mcp']);
  assert.ok(tools.some((t) => t.name === 'search_issues'), 'the quickstart lists its tools');
  // search_issues has optional parameters (status, limit): the form the check is about is there.
  assert.ok(JSON.stringify(tools).includes('{"type":"null"}'), 'an optional parameter accepts null');
  assert.deepEqual(findings, [], report);
});

test('a type array for an optional parameter is a finding (the check runs)', () => {
  const { findings } = strictCheck(process.execPath, [fileURLToPath(new URL('./type_array_server.mjs', import.meta.url))]);
  assert.deepEqual(findings.map((t) => t.findings.map((f) => `${t.toolName} ${f.rule} ${f.severity} ${f.path}`)).flat(),
    ['search type-union warning properties.limit']);
});
